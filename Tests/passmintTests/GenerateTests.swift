import Foundation
import Testing

/// `passmint generate` end to end: the real binary, checked with openssl and unzip.
@Suite("generate (end to end)")
struct GenerateTests {
    /// Unzips `pkpass` into a folder and checks it the way Wallet would, with independent tools.
    static func checkSignedPass(_ pkpass: String, in tmp: TempDir) throws -> URL {
        let dir = tmp.url.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let unzip = try CLI.run("unzip", ["-q", pkpass, "-d", dir.path])
        #expect(unzip.status == 0, "unzip failed: \(unzip.stderr)")
        let verify = try CLI.run(
            "openssl",
            [
                "cms", "-verify", "-binary", "-inform", "DER", "-in", "signature", "-content", "manifest.json",
                "-CAfile", DevIdentity.directory + "/root-ca.pem", "-purpose", "any", "-out", "/dev/null",
            ],
            cwd: dir)
        #expect(verify.status == 0, "openssl cms -verify failed: \(verify.stderr)")
        let printed = try CLI.run(
            "openssl", ["cms", "-cmsout", "-print", "-inform", "DER", "-in", "signature"], cwd: dir)
        #expect(printed.stdout.contains("signingTime"), "no signingTime attribute")
        #expect(printed.stdout.contains("Pass Type ID:"), "signer certificate not embedded")
        #expect(printed.stdout.contains("PassMint Development WWDR"), "WWDR intermediate not embedded")
        // Every manifest hash matches and every archive entry is listed.
        let manifestData = try Data(contentsOf: dir.appendingPathComponent("manifest.json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: manifestData) as? [String: String])
        let listing = try CLI.run("unzip", ["-Z1", pkpass]).stdout.split(separator: "\n").map(String.init)
        #expect(Set(listing) == Set(manifest.keys).union(["manifest.json", "signature"]))
        for (path, hash) in manifest {
            let sha = try CLI.run("sha1sum", [path], cwd: dir).stdout.split(separator: " ").first.map(String.init)
            #expect(sha == hash, "hash of \(path) does not match the manifest")
        }
        return dir
    }

    static func passJSON(_ dir: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: dir.appendingPathComponent("pass.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("each shipped template makes a pass that openssl verifies", arguments: ["loyalty", "status", "event"])
    func shippedTemplates(name: String) throws {
        let tmp = try TempDir()
        let out = tmp.path("\(name).pkpass")
        let result = try CLI.passmint(
            ["generate", "--template", PackagePaths.template(name), "--out", out]
                + DevIdentity.signingArgs)
        #expect(result.status == 0, "generate failed: \(result.stderr)")
        let dir = try Self.checkSignedPass(out, in: tmp)
        let pass = try Self.passJSON(dir)
        #expect(pass["passTypeIdentifier"] as? String == "pass.dev.passmint")
        #expect(pass["teamIdentifier"] as? String == "PASSMINT01")
        #expect(pass["formatVersion"] as? Int == 1)
    }

    @Test(
        "every fixture template folder signs as it is",
        .enabled(if: PackagePaths.hasFixtures, PackagePaths.noFixtures))
    func fixtureTemplates() throws {
        let fixtures = try #require(CLI.fixtures)
        let folder = fixtures.appendingPathComponent("templates")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names.count >= 4)
        for name in names {
            let tmp = try TempDir()
            let out = tmp.path("\(name).pkpass")
            let result = try CLI.passmint(
                ["generate", "--template", folder.appendingPathComponent(name).path, "--out", out]
                    + DevIdentity.signingArgs)
            #expect(result.status == 0, "\(name): \(result.stderr)")
            guard result.status == 0 else { continue }
            let dir = try Self.checkSignedPass(out, in: tmp)
            // Strict JSON out, whatever came in (the boarding pass has trailing commas).
            _ = try Self.passJSON(dir)
            if name == "django-walletpass-StoreCard" {
                let listing = try CLI.run("unzip", ["-Z1", out]).stdout
                #expect(listing.contains("en.lproj/pass.strings"))
                #expect(listing.contains("es.lproj/pass.strings"))
                let strings = try Data(contentsOf: dir.appendingPathComponent("es.lproj/pass.strings"))
                #expect(strings.starts(with: [0xFF, 0xFE]), "pass.strings must be UTF-16LE with a BOM")
            }
        }
    }

    @Test("a value that looks like JSON stays a literal string")
    func injection() throws {
        let tmp = try TempDir()
        let out = tmp.path("x.pkpass")
        let evil = #"","voided":true,"x":""#
        let result = try CLI.passmint(
            [
                "generate", "--template", PackagePaths.template("status"),
                "--set", "memberName=\(evil)", "--out", out,
            ] + DevIdentity.signingArgs)
        #expect(result.status == 0, "\(result.stderr)")
        let dir = try Self.checkSignedPass(out, in: tmp)
        let pass = try Self.passJSON(dir)
        #expect(pass["voided"] == nil)
        #expect(pass["x"] == nil)
        let text = String(decoding: try Data(contentsOf: dir.appendingPathComponent("pass.json")), as: UTF8.self)
        #expect(text.contains(#"\",\"voided\":true,\"x\":\""#))
    }

    @Test("a bad value exits 1 naming the field; a missing identity exits 3; bad usage exits 2")
    func exitCodes() throws {
        let tmp = try TempDir()
        let template = PackagePaths.template("status")
        let bad = try CLI.passmint(
            ["generate", "--template", template, "--set", "milesToNextTier=lots", "--out", tmp.path("a.pkpass")]
                + DevIdentity.signingArgs)
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("milesToNextTier"))
        #expect(!FileManager.default.fileExists(atPath: tmp.path("a.pkpass")))
        let noIdentity = try CLI.passmint(
            ["generate", "--template", template, "--out", tmp.path("b.pkpass"), "--cert-dir", tmp.path("none")])
        #expect(noIdentity.status == 3)
        #expect(noIdentity.stderr.contains("certs dev"))
        let usage = try CLI.passmint(["generate", "--templte", template])
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("Did you mean '--template'"))
    }

    @Test("tier overrides change colours in the status pass")
    func tiers() throws {
        let tmp = try TempDir()
        var colours: [String: String] = [:]
        for tier in ["Silver", "Gold", "Platinum"] {
            let out = tmp.path("\(tier).pkpass")
            let result = try CLI.passmint(
                [
                    "generate", "--template", PackagePaths.template("status"),
                    "--set", "tier=\(tier)", "--out", out,
                ] + DevIdentity.signingArgs)
            #expect(result.status == 0, "\(result.stderr)")
            let pass = try Self.passJSON(try Self.checkSignedPass(out, in: tmp))
            colours[tier] = pass["backgroundColor"] as? String
        }
        #expect(Set(colours.values).count == 3, "each tier should have its own background colour: \(colours)")
    }

    @Test(
        "a serial number outside the URL and file-name grammar is refused before anything is written",
        arguments: ["../escape", "a/b", "ä", ".."])
    func unsafeSerial(serial: String) throws {
        let tmp = try TempDir()
        let result = try CLI.passmint(
            [
                "generate", "--template", PackagePaths.template("loyalty"), "--serial", serial,
                "--out", tmp.path("x.pkpass"),
            ] + DevIdentity.signingArgs)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("must be 1 to 128 ASCII letters, digits"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tmp.path("x.pkpass")))
    }
}
