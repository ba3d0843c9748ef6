import Foundation
import Testing
import PassMintTestSupport
import PassModel
@testable import PassMint
@testable import PassPreview

@Suite("Lint: design review rows")
struct LintTests {
    typealias S = PreviewTestSupport

    @Test(
        "shipped templates have no contrast, changeMessage or overflow rows (in any tier)",
        arguments: ["loyalty", "status", "event", "designer-club.pkpasstemplate"])
    func shippedTemplates(name: String) throws {
        let results = try PassLinter.lint(path: PackagePaths.template(name))
        let codes = results.flatMap(\.rows).map(\.code)
        for bad in [
            LintCode.contrastForeground, LintCode.contrastLabel, LintCode.contrastImage,
            LintCode.changeMessageMissing, LintCode.changeMessageNoValue, LintCode.fieldOverflow,
        ] {
            #expect(!codes.contains(bad), "\(name): \(results.flatMap(\.rows).filter { $0.code == bad })")
        }
    }

    /// One problem per rule; each must give exactly one row with its code.
    static let badPass = S.pass(
        style: "eventTicket",
        top: """
            "backgroundColor": "rgb(200, 200, 200)", "foregroundColor": "rgb(255, 255, 255)", "labelColor": "rgb(20, 20, 20)",
            "barcodes": [{"format": "PKBarcodeFormatQR", "message": "SECRET-77", "messageEncoding": "iso-8859-1"}]
            """,
        fields: """
            "headerFields": [{"key": "gate", "label": "GATE", "value": "B"}],
            "primaryFields": [{"key": "event", "label": "EVENT", "value": "The Extraordinarily Long Summer Festival"}],
            "secondaryFields": [{"key": "s1", "value": "1"}, {"key": "s2", "value": "2"}, {"key": "s3", "value": "3"},
                                {"key": "s4", "value": "4"}, {"key": "s5", "value": "5"}],
            "auxiliaryFields": [{"key": "note", "label": "NOTE", "value": "Lorem ipsum dolor"}],
            "backFields": [{"key": "app", "label": "TICKETS", "value": "Open the app to transfer your ticket."}]
            """)

    @Test("a deliberately bad pass gives one row per problem, each with its stable code")
    func badPass() throws {
        let icon = try #require(FileManager.default.contents(atPath: PackagePaths.template("loyalty") + "/icon.png"))
        let rows = PassLinter.lint(try S.source(Self.badPass, files: ["icon.png": [UInt8](icon)]))
        let codes = rows.map(\.code)
        #expect(
            codes == [
                // The primary value is cut by the preview: a text.truncated row, not field.primary-too-long.
                LintCode.contrastForeground, LintCode.textTruncated, LintCode.fieldOverflow,
                LintCode.changeMessageMissing, LintCode.relevanceMissing, LintCode.imageMissingScale,
                LintCode.placeholderText, LintCode.appLinkMissing, LintCode.barcodeNotReadable,
            ], "\(rows)")
        let contrast = try #require(rows.first)
        #expect(contrast.before.contains("rgb(255, 255, 255)"))
        let fixed = try #require(PassColorValue(parsing: String(contrast.after.split(separator: "\"")[2])).components)
        #expect(RGB(fixed.r, fixed.g, fixed.b).contrast(with: RGB(200, 200, 200)) >= 4.5)
        let overflow = try #require(rows.first { $0.code == LintCode.fieldOverflow })
        #expect(overflow.after.contains("move s5 to backFields"))
        let change = try #require(rows.first { $0.code == LintCode.changeMessageMissing })
        #expect(change.path == "eventTicket.headerFields[0].changeMessage" && change.after.contains("%@"))
        #expect(rows.first { $0.code == LintCode.barcodeNotReadable }?.after == "\"altText\": \"SECRET-77\"")
    }

    @Test("markdown is one table with Before, After and What this changes; JSON has the same rows and codes")
    func reports() throws {
        let rows = PassLinter.lint(try S.source(Self.badPass))
        let table = LintReport.markdown(rows)
        let lines = table.split(separator: "\n")
        #expect(lines[0] == "| Before | After | What this changes |")
        #expect(lines.count == rows.count + 2)
        let json = LintReport.json(file: "bad.pkpass", rows: rows)
        #expect(json["rows"]?.arrayValue?.count == rows.count)
        #expect(json["rows"]?.arrayValue?.first?["code"] == .string(rows[0].code.rawValue))
        #expect(LintReport.markdown([]) == "No design problems found.\n")
    }

    @Test("a changeMessage without %@ is reported with the fixed message")
    func changeMessageWithoutValue() throws {
        let json = S.pass(
            fields:
                "\"primaryFields\": [{\"key\": \"points\", \"label\": \"POINTS\", \"value\": 5, \"changeMessage\": \"Points changed\"}]"
        )
        let rows = PassLinter.lint(try S.source(json))
        let row = try #require(rows.first { $0.code == LintCode.changeMessageNoValue })
        #expect(row.before == "\"Points changed\"" && row.after == "\"changeMessage\": \"Points changed: %@\"")
    }

    @Test("an image of the wrong size names the size its slot expects")
    func imageSize() throws {
        let strip = try #require(
            FileManager.default.contents(atPath: PackagePaths.template("loyalty") + "/icon@3x.png"))
        let json = S.pass(fields: "\"primaryFields\": [{\"key\": \"p\", \"value\": 1}]")
        let rows = PassLinter.lint(try S.source(json, files: ["strip.png": [UInt8](strip)]))
        let row = try #require(rows.first { $0.code == LintCode.imageWrongSize })
        // The store card strip size nearest the image's square shape.
        #expect(row.before == "strip.png 87×87" && row.after == "strip.png 375×144")
    }

    @Test("a poster event ticket missing its semantics gets one row per tag")
    func posterSemantics() throws {
        let json = S.pass(
            style: "eventTicket",
            top:
                "\"preferredStyleSchemes\": [\"posterEventTicket\", \"eventTicket\"], \"semantics\": {\"eventName\": \"Gig\", \"venueName\": \"Hall\"}, \"relevantDates\": [{\"date\": \"2027-01-01T20:00:00Z\"}]",
            fields: "\"primaryFields\": [{\"key\": \"e\", \"value\": \"Gig\"}]")
        let rows = PassLinter.lint(try S.source(json)).filter { $0.code == LintCode.posterIncomplete }
        // Wallet's two tags, then what Apple's validator asks of a poster event ticket (AppleLayoutRule).
        #expect(
            rows.map(\.path) == [
                "semantics.venueRegionName", "semantics.venueRoom", "nfc", "semantics.eventStartDate",
                "semantics.seats", "artwork.png",
            ])
    }
}
