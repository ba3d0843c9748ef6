import Foundation
import Testing
import PassModel
@testable import PassMint
@testable import PassPreview
import PassMintTestSupport

/// Lint sees what the preview shows (issue 21, item 6): every text the preview cuts with "…", localizations that
/// translate some labels and not others, and change messages that read well for any label. The "Bean There"
/// coffee-shop template is written into a temporary folder by each test.
@Suite("Lint: cut texts, localizations and change messages")
struct LintTruncationTests {
    typealias S = PreviewTestSupport

    /// A loyalty template of a coffee shop: the logo text "Coffee Rewards" beside a wide logo, a long member name
    /// and a long label share a row; de.lproj translates MEMBER and not BEANS.
    static func beanThere(in dir: String) throws -> String {
        let folder = dir + "/bean-there"
        let fm = FileManager.default
        try fm.createDirectory(atPath: folder + "/en.lproj", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: folder + "/de.lproj", withIntermediateDirectories: true)
        for image in ["icon.png", "icon@2x.png", "icon@3x.png", "logo.png", "logo@2x.png", "logo@3x.png"] {
            try fm.copyItem(atPath: PackagePaths.template("loyalty") + "/" + image, toPath: folder + "/" + image)
        }
        func write(_ text: String, _ name: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        try write(
            """
            {"formatVersion": 1, "passTypeIdentifier": "pass.com.beanthere.rewards", "teamIdentifier": "BEANTHERE1",
             "serialNumber": "{{serialNumber}}", "organizationName": "Bean There", "description": "Bean There rewards",
             "logoText": "Coffee Rewards",
             "backgroundColor": "rgb(59, 34, 20)", "foregroundColor": "rgb(255, 248, 240)", "labelColor": "rgb(240, 200, 150)",
             "barcodes": [{"format": "PKBarcodeFormatQR", "message": "{{memberNumber}}", "messageEncoding": "iso-8859-1",
                           "altText": "{{memberNumber}}"}],
             "storeCard": {
               "headerFields": [{"key": "beans", "label": "BEANS", "value": "{{beans}}", "changeMessage": "Beans: %@",
                                 "numberStyle": "PKNumberStyleDecimal"}],
               "primaryFields": [{"key": "drinks", "label": "FREE DRINKS", "value": "{{freeDrinks}}",
                                  "changeMessage": "Free drinks: %@"}],
               "secondaryFields": [{"key": "member", "label": "MEMBER", "value": "{{memberName}}"},
                                   {"key": "since", "label": "MEMBER SINCE THE GRAND REOPENING", "value": "{{memberSince}}"}],
               "backFields": [{"key": "terms", "label": "TERMS", "value": "One free drink for every ten stamps."}]}}
            """, "pass.json")
        try write(
            """
            {"fields": [{"name": "memberName", "type": "string", "default": "Maximilian Alexander von Hohenberg"},
                        {"name": "memberNumber", "type": "string", "default": "BT-000042"},
                        {"name": "beans", "type": "integer", "default": "12500"},
                        {"name": "freeDrinks", "type": "integer", "default": "1"},
                        {"name": "memberSince", "type": "string", "default": "2019"}]}
            """, "template.json")
        try write(
            """
            "BEANS" = "BEANS";
            "FREE DRINKS" = "FREE DRINKS";
            "MEMBER" = "MEMBER";
            "MEMBER SINCE THE GRAND REOPENING" = "MEMBER SINCE THE GRAND REOPENING";
            "TERMS" = "TERMS";
            """, "en.lproj/pass.strings")
        try write(
            """
            "FREE DRINKS" = "GRATISGETRÄNKE";
            "MEMBER" = "MITGLIED";
            "MEMBER SINCE THE GRAND REOPENING" = "MITGLIED SEIT DER GROSSEN WIEDERERÖFFNUNG";
            "TERMS" = "BEDINGUNGEN";
            """, "de.lproj/pass.strings")
        return folder
    }

    /// The texts a page shows cut with "…", read from its HTML (entities decoded).
    static func cutTexts(_ html: String) -> [String] {
        html.components(separatedBy: ">").dropFirst().compactMap { part -> String? in
            let text = String(part.prefix { $0 != "<" })
            guard text.hasSuffix("\u{2026}") else { return nil }
            return text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&amp;", with: "&")
        }
    }

    @Test("Bean There: lint reports every text the preview cuts, with the field and the characters that fit")
    func beanThereCuts() throws {
        try withTemporaryDirectory { dir in
            let template = try Self.beanThere(in: dir)
            let source = try #require(try PreviewSource.load(path: template).first)
            let rows = try #require(try PassLinter.lint(path: template).first).rows
            let cutRows = rows.filter { $0.code == "text.truncated" }
            for locale in [nil, "de"] {
                let html = try PassPreview.document([source], options: PreviewOptions(locale: locale)).html
                let cuts = Self.cutTexts(html)
                // The logo text, the member name and the long label at least; in German the long label again.
                #expect(cuts.count >= (locale == nil ? 3 : 2), "\(locale ?? "base"): \(cuts)")
                for shown in cuts {
                    let row = cutRows.first { $0.before.contains("shows as \"\(shown)\"") }
                    #expect(row != nil, "\(locale ?? "base"): no lint row for \(shown)\n\(cutRows)")
                    #expect(
                        row?.before.contains("\(shown.count - 1) of ") == true,
                        "characters that fit: \(String(describing: row))")
                }
                if locale == nil {
                    #expect(
                        cutRows.filter { !$0.before.hasPrefix("de:") && !$0.before.hasPrefix("en:") }.count
                            == cuts.count)
                }
            }
            // Each names its field.
            let paths = Set(cutRows.map(\.path))
            #expect(
                paths.isSuperset(of: [
                    "logoText", "storeCard.secondaryFields[0].value", "storeCard.secondaryFields[1].label",
                ]), "\(paths)")
            #expect(
                cutRows.contains {
                    $0.path == "storeCard.secondaryFields[0].value" && $0.before.contains("field \"member\"")
                })
        }
    }

    @Test("a member name set with --set is cut in lint exactly where the preview cuts it")
    func recordValue() throws {
        try withTemporaryDirectory { dir in
            let template = try Self.beanThere(in: dir)
            for name in [
                "Ada", "Ada Lovelace", "Ada Augusta King, Countess of Lovelace", "Wolfeschlegelsteinhausenbergerdorff",
            ] {
                let record = ["memberName": name]
                let source = try #require(try PreviewSource.load(path: template, record: record).first)
                let cuts = Self.cutTexts(try PassPreview.document([source]).html)
                let rows = try #require(try PassLinter.lint(path: template, record: record).first).rows
                // pass.json's own text (German rows start "de: "; their row shares its width with a longer label).
                let nameRows = rows.filter {
                    $0.code == "text.truncated" && $0.path == "storeCard.secondaryFields[0].value"
                        && !$0.before.hasPrefix("de:")
                }
                let nameCut = cuts.first { $0.hasPrefix(String(name.prefix(2))) }
                // The long names do not fit beside the other field of their row; "Ada" does.
                if name.count > 20 || name == "Ada" {
                    #expect((nameCut != nil) == (name.count > 20), "\(name): \(cuts)")
                }
                #expect(nameRows.count == (nameCut == nil ? 0 : 1), "\(name): \(cuts)")
                if let nameCut { #expect(nameRows.first?.before.contains("shows as \"\(nameCut)\"") == true) }
            }
        }
    }

    @Test("a member's value cut in a localization is not something pass.strings can shorten: no translation advice")
    func recordValueInLocalization() throws {
        try withTemporaryDirectory { dir in
            let template = try Self.beanThere(in: dir)
            let record = ["memberName": "Ada Augusta King, Countess of Lovelace"]
            let rows = try #require(try PassLinter.lint(path: template, record: record).first).rows
            let nameRows = rows.filter {
                $0.code == "text.truncated" && $0.path == "storeCard.secondaryFields[0].value"
            }
            #expect(!nameRows.isEmpty, "the long name is cut: \(rows)")
            for row in nameRows {
                #expect(!row.after.contains("pass.strings"), "a record value is not translated: \(row)")
            }
            // A label that de.lproj does translate still gets the translation advice.
            #expect(
                rows.contains {
                    $0.code == "text.truncated" && $0.before.hasPrefix("de:")
                        && $0.after.contains("de.lproj/pass.strings")
                }, "\(rows)")
        }
    }

    @Test("a localization that translates some labels and not others gets a row naming the locale and the keys")
    func localizationCoverage() throws {
        try withTemporaryDirectory { dir in
            let rows = try #require(try PassLinter.lint(path: try Self.beanThere(in: dir)).first).rows
            let row = try #require(rows.first { $0.code == "localization.missing-keys" }, "\(rows)")
            #expect(row.path == "de.lproj/pass.strings")
            #expect(row.before.contains("\"BEANS\""))
            #expect(row.before.contains("German"))
            #expect(row.after.contains("\"BEANS\" = "))
            // en.lproj covers every key: no row for it.
            #expect(rows.filter { $0.code == "localization.missing-keys" }.count == 1)
        }
    }

    @Test("two localizations with the same keys, and a pass with none, get no localization row")
    func localizationComplete() throws {
        let json = S.pass(fields: "\"primaryFields\": [{\"key\": \"p\", \"label\": \"POINTS\", \"value\": 5}]")
        let en = Array("\"POINTS\" = \"POINTS\";".utf8)
        let de = Array("\"POINTS\" = \"PUNKTE\";".utf8)
        let both = PassLinter.lint(
            try S.source(json, files: ["en.lproj/pass.strings": en, "de.lproj/pass.strings": de]))
        #expect(!both.contains { $0.code == "localization.missing-keys" })
        #expect(!PassLinter.lint(try S.source(json)).contains { $0.code == "localization.missing-keys" })
        let partial = PassLinter.lint(
            try S.source(
                json, files: ["en.lproj/pass.strings": en, "de.lproj/pass.strings": Array("\"X\" = \"Y\";".utf8)]))
        let rows = partial.filter { $0.code == "localization.missing-keys" }
        #expect(rows.map(\.path).sorted() == ["de.lproj/pass.strings", "en.lproj/pass.strings"], "\(rows)")
    }

    @Test(
        "a suggested change message reads well for any label",
        arguments: [
            ("FREE DRINKS", "drinkRewards", "Free drinks: %@"), ("Points", "points", "Points: %@"),
            ("", "loyaltyPoints", "Loyalty points: %@"), ("Tier", "tier", "Tier: %@"),
        ])
    func changeMessageSuggestion(label: String, key: String, expected: String) throws {
        let labelJSON = label.isEmpty ? "" : "\"label\": \"\(label)\", "
        let json = S.pass(fields: "\"headerFields\": [{\"key\": \"\(key)\", \(labelJSON)\"value\": 5}]")
        let row = try #require(PassLinter.lint(try S.source(json)).first { $0.code == "field.change-message-missing" })
        #expect(row.after == "\"changeMessage\": \"\(expected)\"")
    }
}
