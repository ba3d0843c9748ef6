import Foundation
import PassMintTestSupport
import Testing

/// `generate --google` and `batch --google`: links checked with Google's own libraries (signature with the
/// service account's public key, payload against walletobjects.v1.json), values read back from the payload.
@Suite(
    "Google Wallet save links from the CLI",
    .enabled(if: GoogleWalletSupport.available, "needs /opt/passmint-pyenv (scripts/install-deps)"))
struct GoogleWalletTests {
    static let imageBase = "https://passes.example.com"

    func environment(_ key: String) -> [String: String] {
        ["GOOGLE_APPLICATION_CREDENTIALS": key, "PASSMINT_GOOGLE_ISSUER_ID": GoogleWalletSupport.issuerID]
    }

    struct Case: Sendable, CustomStringConvertible {
        let template: String
        let set: [String]
        /// Text that must appear in the object (JSON-encoded): the member's values (name, points, the tier as a
        /// text module's body, the seat) and the barcode message.
        let objectHas: [String]
        /// Text that must appear in the class.
        let classHas: [String]
        let kind: String
        var description: String { template }
    }

    static let cases: [Case] = [
        Case(
            template: "loyalty",
            set: ["memberName=Ada Lovelace", "points=4200", "tier=Gold", "memberEAN=2000100000021"],
            objectHas: [
                "\"accountName\":\"Ada Lovelace\"", "\"int\":4200", "\"body\":\"Gold\"", "\"value\":\"2000100000021\"",
            ],
            classHas: ["\"rewardsTier\":\"Gold\""], kind: "loyalty"),
        Case(
            template: "status",
            set: ["memberName=Ada Lovelace", "tier=Platinum", "milesToNextTier=777", "memberNumber=PMA-42"],
            objectHas: [
                "\"accountName\":\"Ada Lovelace\"", "\"int\":777", "\"body\":\"Platinum\"", "\"value\":\"PMA-42\"",
            ],
            classHas: ["\"rewardsTier\":\"Platinum\""], kind: "loyalty"),
        Case(
            template: "event", set: ["attendeeName=Ada Lovelace", "seat=22", "row=K", "ticketNumber=PML-77"],
            objectHas: [
                "\"ticketHolderName\":\"Ada Lovelace\"", "\"value\":\"22\"", "\"value\":\"K\"", "\"value\":\"PML-77\"",
            ], classHas: ["\"eventName\""], kind: "eventTicket"),
        Case(
            template: "designer-club.pkpasstemplate",
            set: ["MEMBER_NAME=Ada Lovelace", "POINTS=4200", "TIER=Platinum"],
            objectHas: ["\"accountName\":\"Ada Lovelace\"", "\"int\":4200", "\"body\":\"Platinum\"", "CLUB-000123"],
            classHas: [], kind: "loyalty"),
    ]

    @Test(
        "generate --google prints a link whose JWT verifies and whose payload Google's schema accepts", arguments: cases
    )
    func generate(_ c: Case) throws {
        let dir = try TempDir()
        let key = try GoogleWalletSupport.makeKeyFile(in: dir)
        let out = dir.path("pass.pkpass"), json = dir.path("google.json")
        let result = try CLI.passmint(
            ["generate", "--template", CLI.root.appendingPathComponent("Templates/\(c.template)").path, "--out", out]
                + c.set.flatMap { ["--set", $0] } + DevIdentity.signingArgs
                + [
                    "--google", "--google-image-base", Self.imageBase, "--google-class-published", "--google-json",
                    json,
                ], environment: environment(key))
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let wrote = try #require(lines.firstIndex { $0.hasPrefix("wrote \(out)") })
        let googleLine = try #require(lines.firstIndex { $0.hasPrefix("google: https://pay.google.com/gp/v/save/") })
        #expect(googleLine == wrote + 1, "the google line follows the line naming the .pkpass")
        let url = String(lines[googleLine].dropFirst("google: ".count))

        let check = try GoogleWalletSupport.checkLink(url, keyFile: key)
        #expect(check.ok, "\(check.errors)")
        #expect(check.claims["iss"] as? String == GoogleWalletSupport.clientEmail)
        #expect(check.claims["typ"] as? String == "savetowallet")
        let object = try #require(check.objects.first)
        let objectText = String(
            decoding: try JSONSerialization.data(withJSONObject: object, options: [.withoutEscapingSlashes]),
            as: UTF8.self)
        for expected in c.objectHas { #expect(objectText.contains(expected), "\(expected) in \(objectText)") }
        #expect(object["state"] as? String == "ACTIVE")

        // The class (published beforehand, so not in this link) as generate wrote it, against the schema too.
        let stored = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        #expect(stored["kind"] as? String == c.kind)
        let klass = try JSONSerialization.data(
            withJSONObject: stored["class"] as Any, options: [.withoutEscapingSlashes])
        let classCheck = try GoogleWalletSupport.checkResource(kind: c.kind, part: "class", json: klass, in: dir)
        #expect(classCheck.ok, "\(classCheck.errors)")
        #expect(object["classId"] as? String == (stored["class"] as? [String: Any])?["id"] as? String)
        for expected in c.classHas { #expect(String(decoding: klass, as: UTF8.self).contains(expected)) }
    }

    @Test("offline, a link too long for its class is refused with what to do, and no pass is written")
    func refusedOffline() throws {
        let dir = try TempDir()
        let key = try GoogleWalletSupport.makeKeyFile(in: dir)
        let out = dir.path("pass.pkpass")
        let result = try CLI.passmint(
            ["generate", "--template", CLI.root.appendingPathComponent("Templates/loyalty").path, "--out", out]
                + DevIdentity.signingArgs + ["--google", "--google-image-base", Self.imageBase],
            environment: environment(key))
        #expect(result.status == 1)
        #expect(result.stderr.contains("more than the 1800"))
        #expect(result.stderr.contains("inserted through the Google Wallet API"))
        #expect(result.stderr.contains("--google-class-published"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("a bad key file is named, never quoted, and exits before any pass is written")
    func badKeyFile() throws {
        let dir = try TempDir()
        let key = try GoogleWalletSupport.makeKeyFile(in: dir)
        var text = try String(contentsOfFile: key, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"type\" : \"service_account\"", with: "\"type\" : \"authorized_user\"")
        let bad = try dir.write(Array(text.utf8), "bad.json")
        let out = dir.path("pass.pkpass")
        let result = try CLI.passmint(
            ["generate", "--template", CLI.root.appendingPathComponent("Templates/loyalty").path, "--out", out]
                + DevIdentity.signingArgs
                + ["--google", "--google-key", bad, "--google-image-base", Self.imageBase, "--google-class-published"],
            environment: ["PASSMINT_GOOGLE_ISSUER_ID": GoogleWalletSupport.issuerID])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(bad) is not a Google service-account key file: type"))
        #expect(!result.stderr.contains("PRIVATE KEY"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("batch --google of 1,000 rows: every report row has its own link, and links verify")
    func batch() throws {
        let dir = try TempDir()
        let key = try GoogleWalletSupport.makeKeyFile(in: dir)
        var csv = "memberName,memberNumber,points,tier\n"
        for i in 0..<1000 {
            csv += "Member \(i),PMC-\(1_000_000 + i),\(i * 7),\(["Bronze", "Silver", "Gold"][i % 3])\n"
        }
        let csvPath = try dir.write(Array(csv.utf8), "members.csv")
        let report = dir.path("report.jsonl")
        let result = try CLI.passmint(
            [
                "batch", "--template", CLI.root.appendingPathComponent("Templates/loyalty").path, "--csv", csvPath,
                "--out", dir.path("out"), "--report", report, "--google", "--google-image-base", Self.imageBase,
                "--google-class-published",
            ] + DevIdentity.signingArgs, environment: environment(key))
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(rows.count == 1000)
        let links = rows.compactMap { $0["googleSaveUrl"] as? String }
        #expect(links.count == 1000)
        #expect(Set(links).count == 1000, "each row has its own link")
        for index in [0, 1, 2, 500, 999] {
            let check = try GoogleWalletSupport.checkLink(links[index], keyFile: key)
            #expect(check.ok, "\(check.errors)")
            let object = try #require(check.objects.first)
            #expect(object["accountName"] as? String == "Member \(rows[index]["line"] as! Int - 2)")
        }
    }

    @Test("lint --google lists what Google cannot show")
    func lint() throws {
        let result = try CLI.passmint(
            ["lint", "--json", "--google", CLI.root.appendingPathComponent("Templates/loyalty").path])
        let rows = try #require(
            (try JSONSerialization.jsonObject(with: Data(result.output)) as? [String: Any])?["rows"] as? [[String: Any]]
        )
        let google = rows.filter { ($0["code"] as? String)?.hasPrefix("google.") == true }
        #expect(
            google.contains { $0["code"] as? String == "google.unmapped" && $0["path"] as? String == "barcodes[1]" })
        #expect(
            google.contains { $0["code"] as? String == "google.unmapped" && $0["path"] as? String == "foregroundColor" }
        )
        #expect(google.contains { $0["code"] as? String == "google.logo-not-square" })
        let plain = try CLI.passmint(["lint", "--json", CLI.root.appendingPathComponent("Templates/loyalty").path])
        #expect(!plain.stdout.contains("google."), "the rows come only with --google")
    }
}
