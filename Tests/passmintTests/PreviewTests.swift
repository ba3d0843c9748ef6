import Foundation
import Testing

/// `passmint preview` and `passmint lint` end to end: the built binary, headless Chromium and zbarimg.
@Suite("preview and lint (end to end)", .serialized)
struct PreviewTests {
    static let templates = PackagePaths.root.appendingPathComponent("Templates").path
    static let tools: Bool = ["/usr/bin/chromium", "/usr/bin/zbarimg"].allSatisfy {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    static func zbar(_ png: String) throws -> [String] {
        try CLI.run("zbarimg", ["-q", "--raw", png]).stdout.split(separator: "\n").map(String.init)
    }

    @Test(
        "a template previews to a 3x PNG whose barcode decodes to the pass's message",
        .enabled(if: tools, "needs chromium and zbarimg (scripts/install-deps)"))
    func templatePNG() throws {
        let tmp = try TempDir()
        let result = try CLI.passmint([
            "preview", Self.templates + "/loyalty", "--set", "memberEAN=2000100000076",
            "--tier", "Gold", "--out", tmp.path("loyalty.png"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.zbar(tmp.path("loyalty.png")) == ["2000100000076"])
    }

    @Test("HTML is one self-contained file: images inlined, localized, the back with --back")
    func html() throws {
        let tmp = try TempDir()
        let result = try CLI.passmint([
            "preview", Self.templates + "/loyalty", "--locale", "de", "--back",
            "--set", "points=1200", "--out", tmp.path("loyalty.html"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: tmp.path("loyalty.html"), encoding: .utf8)
        #expect(html.contains("src=\"data:image/png;base64,"))
        #expect(!html.contains("src=\"http") && !html.contains("href=\"http://") && !html.contains("<link"))
        #expect(html.contains("1.200"))  // German digit grouping
        #expect(html.contains("class=\"pass back\""))
    }

    @Test(
        "fixture passes and templates preview front and back, in every style they have",
        .enabled(if: PackagePaths.hasFixtures, PackagePaths.noFixtures),
        .enabled(if: tools, "needs chromium and zbarimg (scripts/install-deps)"))
    func fixtures() throws {
        let tmp = try TempDir()
        let root = try #require(PackagePaths.fixtures)
        let inputs = [
            "pkpass/apple-sample__Event.pkpass", "pkpass/apple-sample__StoreCard.pkpass",
            "pkpass/kitinerary__lufthansa.pkpasses", "pkpass/ueman__boarding_pass_ui.pkpass",
            "pkpass/ueman__generic_with_invalid_checksum.pkpass", "templates/apple-BoardingPass",
            "templates/apple-Event",
            "templates/apple-StoreCard", "templates/django-walletpass-StoreCard",
        ]
        var styles = Set<String>()
        for (i, input) in inputs.enumerated() {
            let html = tmp.path("\(i).html")
            let result = try CLI.passmint(["preview", root.appendingPathComponent(input).path, "--back", "--out", html])
            #expect(result.status == 0, "\(input): \(result.stderr)")
            let text = try String(contentsOfFile: html, encoding: .utf8)
            for style in ["boardingPass", "coupon", "eventTicket", "generic", "storeCard"]
            where text.contains("data-style=\"\(style)\"") { styles.insert(style) }
        }
        #expect(styles == ["boardingPass", "eventTicket", "generic", "storeCard"])
        let png = tmp.path("boarding.png")
        #expect(
            try CLI.passmint([
                "preview", root.appendingPathComponent("templates/apple-BoardingPass").path, "--back",
                "--out", png,
            ]).status == 0)
        #expect(((try? FileManager.default.attributesOfItem(atPath: png)[.size] as? Int) ?? 0) > 10_000)
    }

    @Test(
        "a gallery of a 100-pass batch opens in Chromium with 100 thumbnails, each linked to its preview",
        .enabled(if: tools, "needs chromium (scripts/install-deps)"))
    func gallery() throws {
        let tmp = try TempDir()
        let csv =
            (["memberName,memberNumber,points,tier"] + (1...100).map { "Member \($0),M\($0),\($0 * 10),Gold" })
            .joined(separator: "\n") + "\n"
        try Data(csv.utf8).write(to: URL(fileURLWithPath: tmp.path("rows.csv")))
        let batch = try CLI.passmint(
            [
                "batch", "--template", Self.templates + "/loyalty", "--csv", tmp.path("rows.csv"),
                "--out", tmp.path("out"),
            ] + DevIdentity.signingArgs)
        #expect(batch.status == 0, "\(batch.stderr)")
        let result = try CLI.passmint(["preview", tmp.path("out"), "--out", tmp.path("gallery.html")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("100 passes"))
        let dom = try CLI.run(
            "/usr/bin/chromium",
            [
                "--headless", "--no-sandbox", "--disable-gpu",
                "--user-data-dir=\(tmp.path("profile"))", "--dump-dom", "file://\(tmp.path("gallery.html"))",
            ]
        ).stdout
        #expect(dom.components(separatedBy: "class=\"thumbnail\"").count - 1 == 100)
        let previews = try FileManager.default.contentsOfDirectory(atPath: tmp.path("gallery-previews"))
        #expect(previews.filter { $0.hasSuffix(".html") }.count == 100)
        let firstLink = try #require(dom.range(of: "href=\"gallery-previews/"))
        let linked = dom[firstLink.upperBound...].prefix { $0 != "\"" }
        #expect(FileManager.default.fileExists(atPath: tmp.path("gallery-previews/" + linked)))
    }

    @Test("no Chromium: PNG output is an environment error (exit 3) naming what to install")
    func missingChromium() throws {
        let tmp = try TempDir()
        let result = try CLI.passmint(
            ["preview", Self.templates + "/loyalty", "--out", tmp.path("x.png")],
            environment: ["PATH": "/nonexistent", "PASSMINT_CHROMIUM": ""])
        #expect(result.status == 3)
        #expect(result.stderr.contains("apt-get install chromium"))
        #expect(try CLI.passmint(["preview", Self.templates + "/loyalty", "--out", tmp.path("x.txt")]).status == 2)
    }

    @Test(
        "lint: shipped templates print no rows and exit 0",
        arguments: ["loyalty", "status", "event", "designer-club.pkpasstemplate"])
    func lintShipped(name: String) throws {
        let result = try CLI.passmint(["lint", Self.templates + "/" + name])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout == "No design problems found.\n")
    }

    @Test("lint: a deliberately bad template prints one table row per problem; --json gives the codes")
    func lintBadTemplate() throws {
        let tmp = try TempDir()
        let dir = tmp.path("bad")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.templates + "/loyalty/icon.png", toPath: dir + "/icon.png")
        try Data(
            """
            {"formatVersion": 1, "passTypeIdentifier": "pass.test.bad", "serialNumber": "{{serialNumber}}",
             "teamIdentifier": "T", "organizationName": "Bad", "description": "bad design",
             "backgroundColor": "rgb(240, 240, 240)", "foregroundColor": "rgb(200, 200, 200)", "labelColor": "rgb(40, 40, 40)",
             "barcodes": [{"format": "PKBarcodeFormatQR", "message": "{{code}}", "messageEncoding": "iso-8859-1"}],
             "storeCard": {
               "headerFields": [{"key": "tier", "label": "TIER", "value": "{{tier}}"}],
               "primaryFields": [{"key": "points", "label": "POINTS", "value": "{{points}}", "changeMessage": "Points changed"}],
               "secondaryFields": [{"key": "a", "value": "TODO"}, {"key": "b", "value": "2"}, {"key": "c", "value": "3"}],
               "auxiliaryFields": [{"key": "d", "value": "4"}, {"key": "e", "value": "5"}],
               "backFields": [{"key": "app", "label": "APP", "value": "Open the app to see your history."}]}}
            """.utf8
        ).write(to: URL(fileURLWithPath: dir + "/pass.json"))
        try Data(
            """
            {"fields": [{"name": "tier", "type": "enum", "values": ["Silver", "Gold"], "default": "Silver"},
                        {"name": "points", "type": "integer", "default": "1234567890123"},
                        {"name": "code", "type": "string", "default": "CODE-1"}]}
            """.utf8
        ).write(to: URL(fileURLWithPath: dir + "/template.json"))
        let result = try CLI.passmint(["lint", dir])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "| Before | After | What this changes |")
        let json = try CLI.passmint(["lint", "--json", dir])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let codes = (object["rows"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        #expect(
            codes == [
                // The 13-digit primary value is cut by the preview: text.truncated, not field.primary-too-long.
                "contrast.foreground", "text.truncated", "field.overflow",
                "field.change-message-missing", "field.change-message-no-value", "image.missing-scale",
                "text.placeholder", "back.app-link-missing", "barcode.not-readable",
            ])
        #expect(lines.count == codes.count + 2)
    }
}
