import Foundation
import Testing

/// `passmint verify` and `passmint certs inspect` end to end (the real binary).
@Suite("verify and certs inspect (end to end)")
struct VerifyCommandTests {
    static func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    static func codes(_ report: [String: Any]) -> [String] {
        (report["problems"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    }

    @Test(
        "fixtures folder: one JSON line per pass, the expected codes, exit 1",
        .enabled(if: PackagePaths.hasFixtures, PackagePaths.noFixtures))
    func fixtures() throws {
        let fixtures = try #require(CLI.fixtures?.appendingPathComponent("pkpass").path)
        let result = try CLI.passmint(["verify", "--json", fixtures])
        #expect(result.status == 1)
        let reports = try Self.jsonLines(result.stdout)
        #expect(reports.count == 6)
        for report in reports {
            #expect(Set(report.keys) == ["file", "valid", "style", "passTypeIdentifier", "serialNumber", "problems"])
            #expect(report["valid"] as? Bool == false)
        }
        func report(_ suffix: String) -> [String: Any]? {
            reports.first { ($0["file"] as? String)?.hasSuffix(suffix) == true }
        }
        #expect(Self.codes(try #require(report("apple-sample__StoreCard.pkpass"))).contains("certificate.expired"))
        #expect(
            Self.codes(try #require(report("ueman__generic_with_invalid_checksum.pkpass")))
                .contains("manifest.hash-mismatch"))
        #expect(
            Self.codes(try #require(report("ueman__boarding_pass_ui.pkpass")))
                .contains("certificate.wrong-intermediate"))
        let lufthansa = reports.filter { ($0["file"] as? String)?.contains("lufthansa.pkpasses:") == true }
        #expect(lufthansa.count == 2)
        #expect(lufthansa.allSatisfy { Self.codes($0).contains("signature.missing") })

        let human = try CLI.passmint(["verify", fixtures + "/ueman__boarding_pass_ui.pkpass"])
        #expect(human.status == 1)
        #expect(human.stdout.contains("INVALID"))
        #expect(human.stdout.contains("certificate.wrong-intermediate at signature:"))
    }

    @Test("a pass made by generate verifies: exit 0, a development pass with one warning")
    func generated() throws {
        let tmp = try TempDir()
        let out = tmp.path("loyalty.pkpass")
        let made = try CLI.passmint(
            [
                "generate", "--template", PackagePaths.template("loyalty"),
                "--out", out,
            ] + DevIdentity.signingArgs)
        try #require(made.status == 0, "\(made.stderr)")
        let result = try CLI.passmint(["verify", out])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains(": valid (storeCard"))
        #expect(result.stdout.contains("development pass"))
        let json = try Self.jsonLines(try CLI.passmint(["verify", "--json", out]).stdout)
        #expect(json.first?["valid"] as? Bool == true)
        #expect(Self.codes(try #require(json.first)) == ["certificate.not-apple"])
    }

    @Test("damaged file: archive.unreadable, exit 1; no argument: exit 2")
    func damaged() throws {
        let tmp = try TempDir()
        try Data("not a zip".utf8).write(to: URL(fileURLWithPath: tmp.path("bad.pkpass")))
        let result = try CLI.passmint(["verify", "--json", tmp.path("bad.pkpass")])
        #expect(result.status == 1)
        #expect(Self.codes(try #require(try Self.jsonLines(result.stdout).first)) == ["archive.unreadable"])
        #expect(try CLI.passmint(["verify"]).status == 2)
    }

    @Test("certs inspect: dev certificate, matching and foreign key, JSON, missing file")
    func certsInspect() throws {
        let dir = DevIdentity.directory
        let leaf = try CLI.passmint(["certs", "inspect", dir + "/pass-cert.pem", "--key", dir + "/pass-key.pem"])
        #expect(leaf.status == 0, "\(leaf.stderr)")
        #expect(leaf.stdout.contains("pass type ID      pass.dev.passmint"))
        #expect(leaf.stdout.contains("PassMint development"))
        #expect(leaf.stdout.contains("matches the certificate"))
        let foreign = try CLI.passmint(["certs", "inspect", dir + "/wwdr.pem", "--key", dir + "/pass-key.pem"])
        #expect(foreign.status == 1)
        #expect(foreign.stdout.contains("DOES NOT match"))
        let p12 = try CLI.passmint(
            ["certs", "inspect", dir + "/pass.p12", "--password-env", "PM_TEST_P12", "--json"],
            environment: ["PM_TEST_P12": "passmint-dev"])
        #expect(p12.status == 0, "\(p12.stderr)")
        let object = try #require(try Self.jsonLines(p12.stdout).first)
        #expect(object["format"] as? String == "PKCS#12")
        #expect(
            (object["certificates"] as? [[String: Any]])?.first?["wwdrGeneration"] as? String
                == "PassMint development")
        #expect(try CLI.passmint(["certs", "inspect", dir + "/nope.pem"]).status == 3)
    }
}
