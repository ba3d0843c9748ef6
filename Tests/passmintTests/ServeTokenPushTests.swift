import Foundation
import PassMintTestSupport
import Testing

/// `serve` pushing with an APNs auth key (.p8) for its team's pass type and with a certificate for another team's,
/// in one process, against PushTestServer.py verifying the token with the key's public key.
@Suite("serve: APNs token authentication (end to end)", .serialized)
struct ServeTokenPushTests {
    static let keyID = "KEY1234567"
    static let otherPassType = "pass.org.other.passmint"
    static let otherTeam = "OTHERTEAM1"

    @Test(
        "the key's team pushes with a verified provider token, another team's pass type with its certificate",
        .enabled(
            if: TestTools.pythonWithH2AndCryptography != nil, TestTools.pythonWithH2AndCryptographyMissing),
        .timeLimit(.minutes(3)))
    func tokenAndCertificateInOneServe() throws {
        let keys = try TempDir()
        let p8 = keys.path("AuthKey_\(Self.keyID).p8")
        #expect(
            try CLI.run("openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", p8])
                .status == 0)
        chmod(p8, 0o644)  // readable by others: serve must say so
        let publicKey = keys.path("public.pem")
        #expect(try CLI.run("openssl", ["pkey", "-in", p8, "-pubout", "-out", publicKey]).status == 0)
        let other = keys.path("other-team")
        let made = try CLI.passmint(
            ["certs", "dev", "--dir", other, "--pass-type-id", Self.otherPassType, "--team-id", Self.otherTeam])
        try #require(made.status == 0, "\(made.stderr)")

        let f = try ServeFixture(
            python: TestTools.pythonWithH2AndCryptography,
            clientCAs: [
                DevIdentity.directory + "/wwdr.pem", DevIdentity.directory + "/root-ca.pem", other + "/wwdr.pem",
                other + "/root-ca.pem",
            ],
            serveOptions: [
                "--apns-key", p8, "--apns-key-id", Self.keyID, "--apns-team-id", DevIdentity.teamIdentifier,
                "--apns-cert-dir", other,
            ],
            apnsArguments: [
                "--token-key", publicKey, "--token-key-id", Self.keyID, "--token-team", DevIdentity.teamIdentifier,
                "--token-topics", ServeTools.passType,
            ])
        defer { f.stop() }
        let mine = try f.generate(serial: "TOKEN-1")
        let theirs = f.tmp.path("OTHER-1.pkpass")
        let issued = try CLI.passmint(
            ["generate", "--template", ServeTools.status] + f.storeArguments
                + ["--web-service-url", f.base + "/", "--serial", "OTHER-1", "--out", theirs, "--cert-dir", other])
        try #require(issued.status == 0, "\(issued.stderr)")
        let theirToken = try #require(try ServeTools.passJSON(theirs)["authenticationToken"] as? String)

        #expect(
            try f.register(
                device: "tokenphone", serial: "TOKEN-1", token: mine.token, pushToken: pushToken("aa", 1)
            ).status == 201)
        let registered = try f.http(
            "POST", "/v1/devices/otherphone/registrations/\(Self.otherPassType)/OTHER-1",
            headers: ["Authorization": "ApplePass \(theirToken)"],
            body: #"{"pushToken":"\#(pushToken("bb", 2))"}"#)
        #expect(registered.status == 201)
        #expect(try f.update("TOKEN-1", ["tier=Gold"]).status == 0)
        let otherUpdate = try CLI.passmint(
            ["update", "OTHER-1"] + f.storeArguments + ["--set", "tier=Gold", "--cert-dir", other])
        #expect(otherUpdate.status == 0, "\(otherUpdate.stderr)")

        let arrived = try waitUntil(timeout: 30) { try f.apnsRequests().count >= 2 }
        try #require(arrived, "pushes: \((try? f.apnsRequests()) ?? []); serve: \(f.serve.stderr)")
        let requests = try f.apnsRequests()
        func topic(_ request: [String: Any]) -> String? {
            (request["headers"] as? [[String]])?.first { $0.first == "apns-topic" }?.last
        }
        let token = try #require(requests.first { topic($0) == ServeTools.passType })
        let certificate = try #require(requests.first { topic($0) == Self.otherPassType })
        #expect(token["auth"] as? String == "token" && token["status"] as? Int == 200)
        #expect(token["client_cn"] is NSNull, "no client certificate on the token connection")
        #expect(certificate["auth"] as? String == "certificate" && certificate["status"] as? Int == 200)
        #expect(certificate["client_cn"] as? String == "Pass Type ID: \(Self.otherPassType)")
        #expect(
            !((certificate["headers"] as? [[String]]) ?? []).contains { $0.first == "authorization" },
            "a certificate push carries no token")
        #expect(requests.count == 2, "one push each: \(requests)")

        let log = f.serve.stderr
        #expect(
            log.contains(
                "pushes for \(ServeTools.passType) (team \(DevIdentity.teamIdentifier)): APNs provider token, auth key "
                    + "\(Self.keyID) of team \(DevIdentity.teamIdentifier)"), "\(log)")
        #expect(
            log.contains("pushes for \(Self.otherPassType) (team \(Self.otherTeam)): certificate "), "\(log)")
        #expect(log.contains("\(p8) holds the APNs auth key and is readable by others"), "\(log)")
        let keyText = try String(contentsOfFile: p8, encoding: .utf8)
        let keyBody = keyText.split(separator: "\n").dropFirst().first.map(String.init) ?? "?"
        #expect(!log.contains(keyBody), "the key never appears in the log")
        #expect(f.stop() == 0)
    }

    @Test("the sandbox host and half of the key options are refused before anything starts")
    func refusals() throws {
        let tmp = try TempDir()
        let sandbox = try CLI.passmint(
            ["serve", "--db", tmp.path("s.db"), "--port", "0", "--apns", "https://api.sandbox.push.apple.com"]
                + DevIdentity.signingArgs)
        #expect(sandbox.status == 3 && sandbox.stderr.contains("sandbox"), "\(sandbox.stderr)")
        let half = try CLI.passmint(
            ["serve", "--db", tmp.path("s.db"), "--port", "0", "--apns-key", tmp.path("k.p8")] + DevIdentity.signingArgs
        )
        #expect(half.status == 2 && half.stderr.contains("--apns-key-id"), "\(half.stderr)")
    }
}
