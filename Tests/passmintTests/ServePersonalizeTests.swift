import Foundation
import Testing

/// A personalizable rewards card made in a test's folder: Templates/loyalty plus `nfc`, `personalization.json`
/// and `personalizationLogo.png` (wallet-spec §6), signed with the NFC-enabled development identity, which passes
/// with `nfc` or `personalization.json` need.
struct RewardsSetup {
    let template: String
    var rootCA: String { DevIdentity.nfcDirectory + "/root-ca.pem" }
    var signingArguments: [String] { DevIdentity.nfcSigningArgs }

    init(in tmp: TempDir) throws {
        template = tmp.path("rewards")
        try FileManager.default.copyItem(
            atPath: PackagePaths.template("loyalty"), toPath: template)
        let script = """
            import json, struct, sys, zlib
            folder = sys.argv[1]
            with open(folder + "/pass.json") as f: document = json.load(f)
            document["nfc"] = {"message": "PMC-1000-0001",
                               "encryptionPublicKey": "MDkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDIgACAAAAAAAAAAAA"}
            with open(folder + "/pass.json", "w") as f: json.dump(document, f, indent=2)
            with open(folder + "/personalization.json", "w") as f:
                json.dump({"requiredPersonalizationFields": ["PKPassPersonalizationFieldName",
                           "PKPassPersonalizationFieldEmailAddress"], "description": "Join PassMint Rewards"}, f)
            def png(width, height):
                rows = b"".join(b"\\x00" + b"\\x20\\x40\\x80\\xff" * width for _ in range(height))
                def chunk(kind, data):
                    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
                header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
                return b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
            for name, size in [("personalizationLogo.png", (150, 40)), ("personalizationLogo@2x.png", (300, 80))]:
                with open(folder + "/" + name, "wb") as f: f.write(png(*size))
            """
        let made = try CLI.run("/usr/bin/python3", ["-c", script, template])
        guard made.status == 0 else { throw ServeFailure("making the rewards template: \(made.stderr)") }
    }

    /// Issues a pass of `template` into the fixture's store with the NFC identity; its path and token.
    func generate(_ f: ServeFixture, template: String, serial: String) throws -> (path: String, token: String) {
        let out = f.tmp.path("\(serial).pkpass")
        let result = try CLI.passmint(
            ["generate", "--template", template] + f.storeArguments
                + ["--web-service-url", f.base + "/", "--serial", serial, "--out", out, "--trust-root", rootCA]
                + signingArguments)
        guard result.status == 0 else { throw ServeFailure("generate \(serial): \(result.stderr)") }
        guard let token = try ServeTools.passJSON(out)["authenticationToken"] as? String else {
            throw ServeFailure("generate \(serial): no authenticationToken")
        }
        return (out, token)
    }
}

@Suite("serve: personalize signs a rewards sign-up, never a manifest (end to end)", .serialized)
struct ServePersonalizeTests {
    static let walletToken = "3q2+7wABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4fICEiIyQlJicoKSor"

    func personalize(_ f: ServeFixture, _ serial: String, token: String, info: [String: String] = [:]) throws
        -> HTTPReply
    {
        let body = try JSONSerialization.data(
            withJSONObject: ["personalizationToken": token, "requiredPersonalizationInfo": info])
        return try f.http(
            "POST", "/v1/passes/\(ServeTools.passType)/\(serial)/personalize",
            body: String(decoding: body, as: UTF8.self))
    }

    /// `openssl cms -verify` of a detached DER signature over `content`'s bytes.
    func cmsVerifies(signature: Data, content: Data, rootCA: String?, tmp: TempDir) throws -> Bool {
        let id = UUID().uuidString
        let signatureFile = tmp.path("sig-\(id).der"), contentFile = tmp.path("content-\(id)")
        try signature.write(to: URL(fileURLWithPath: signatureFile))
        try content.write(to: URL(fileURLWithPath: contentFile))
        let trust = rootCA.map { ["-CAfile", $0, "-purpose", "any"] } ?? ["-noverify"]
        return try CLI.run(
            "openssl",
            [
                "cms", "-verify", "-binary", "-inform", "DER", "-in", signatureFile, "-content", contentFile, "-out",
                "/dev/null",
            ] + trust
        ).status == 0
    }

    @Test("the manifest forgery and passes without personalization.json are refused; a real sign-up is signed once")
    func forgeryAndEnrollment() throws {
        let tmp = try TempDir()
        let rewards = try RewardsSetup(in: tmp)
        let f = try ServeFixture(
            python: nil, signingArguments: rewards.signingArguments, serveOptions: ["--trust-root", rewards.rootCA])
        defer { f.stop() }
        let (card, cardToken) = try rewards.generate(f, template: rewards.template, serial: "REWARD-1")
        _ = try rewards.generate(f, template: ServeTools.status, serial: "PLAIN-1")

        // The forgery of issue 20: the text of a real pass's manifest.json as the token.
        let manifest = try ServeTools.entry(card, "manifest.json", tmp: tmp)
        for serial in ["REWARD-1", "PLAIN-1", "NOPE-1"] {
            let forged = try personalize(f, serial, token: String(decoding: manifest, as: UTF8.self))
            #expect(forged.status == 400, "\(serial): \(forged.status) \(forged.text)")
            #expect(try !cmsVerifies(signature: forged.body, content: manifest, rootCA: nil, tmp: tmp))
        }
        #expect(try f.count("personalizations") == 0)
        #expect(try f.count("passes", where: "personalized_at IS NOT NULL") == 0)

        // A Wallet-shaped token for a pass without personalization.json, for an unknown serial: one answer.
        let plain = try personalize(f, "PLAIN-1", token: Self.walletToken)
        let unknown = try personalize(f, "NOPE-1", token: Self.walletToken)
        #expect(plain.status == 404)
        #expect(plain.status == unknown.status && plain.body == unknown.body)
        #expect(plain.headers.filter { $0.key != "date" } == unknown.headers.filter { $0.key != "date" })

        // The real sign-up.
        let signed = try personalize(
            f, "REWARD-1", token: Self.walletToken,
            info: ["fullName": "Ada Lovelace", "emailAddress": "ada@example.com"])
        #expect(signed.status == 200, "\(signed.text)")
        #expect(signed.headers["content-type"] == "application/octet-stream")
        let token = Data(Self.walletToken.utf8)
        #expect(try cmsVerifies(signature: signed.body, content: token, rootCA: rewards.rootCA, tmp: tmp))
        #expect(try cmsVerifies(signature: signed.body, content: token, rootCA: nil, tmp: tmp))
        #expect(try !cmsVerifies(signature: signed.body, content: manifest, rootCA: nil, tmp: tmp))
        #expect(try f.count("personalizations", where: "signature IS NOT NULL") == 1)
        #expect(
            try ServeTools.sqlite(f.db, "select info from personalizations")
                == #"{"emailAddress":"ada@example.com","fullName":"Ada Lovelace"}"#)

        // A repeat gets the same signature; another token for the personalized card gets the refusal.
        let again = try personalize(f, "REWARD-1", token: Self.walletToken)
        #expect(again.status == 200 && again.body == signed.body)
        let other = try personalize(f, "REWARD-1", token: String(Self.walletToken.reversed()))
        #expect(other.status == unknown.status && other.body == unknown.body)
        #expect(try f.count("personalizations") == 1)

        // Wallet then downloads the personalized pass: a new version, without the sign-up files, still valid.
        let download = try f.download(serial: "REWARD-1", token: cardToken)
        #expect(download.status == 200)
        let personalized = tmp.path("personalized.pkpass")
        try download.body.write(to: URL(fileURLWithPath: personalized))
        let names = try CLI.run("unzip", ["-Z1", personalized]).stdout.split(separator: "\n").map(String.init)
        #expect(names.contains("pass.json") && !names.contains { $0.hasPrefix("personalization") }, "\(names)")
        #expect(try CLI.run("unzip", ["-Z1", card]).stdout.contains("personalization.json"))
        let verified = try CLI.passmint(["verify", personalized, "--trust-root", rewards.rootCA])
        #expect(verified.status == 0, "\(verified.stdout) \(verified.stderr)")

        let metrics = try f.http("GET", "/metrics").text
        for (result, count) in [("stored", 1), ("repeated", 1), ("refused", 3), ("invalid", 3)] {
            #expect(
                metrics.contains(
                    #"passmint_unauthenticated_writes_total{kind="personalization",result="\#(result)"} \#(count)"#),
                "\(result)")
        }
    }
}
