import Foundation
import Testing

@testable import PassModel

/// A lenient spelling `Pass.parse` accepts and rewrites in the strict form, with the paths it must report.
struct Normalization: Sendable, CustomTestStringConvertible {
    let name: String
    let document: JSONValue
    /// What `normalizedPaths` must be: empty for a document already in the strict form.
    let paths: [String]
    var testDescription: String { name }
}

/// `Pass.parse` reports the path of every value it rewrote (what `lint` and the issuer tell the author), and
/// nothing for a document already in the strict form.
@Suite("Pass.parse: normalized paths")
struct NormalizedPathsTests {
    static let cases: [Normalization] = [
        Normalization(
            name: "hex colour", document: ["formatVersion": 1, "backgroundColor": "#ff0000", "generic": [:]],
            paths: ["backgroundColor"]),
        Normalization(
            name: "number as string", document: ["formatVersion": "1", "generic": [:]], paths: ["formatVersion"]),
        Normalization(
            name: "bool as string", document: ["formatVersion": 1, "voided": "true", "generic": [:]],
            paths: ["voided"]),
        Normalization(
            name: "single barcode",
            document: [
                "formatVersion": 1,
                "barcodes": ["format": "PKBarcodeFormatQR", "message": "m", "messageEncoding": "iso-8859-1"],
                "generic": [:],
            ],
            paths: ["barcodes"]),
        Normalization(
            name: "two at once",
            document: ["formatVersion": "1", "foregroundColor": "rgb(1,2,3)", "generic": [:]],
            paths: ["foregroundColor", "formatVersion"]),
        Normalization(
            name: "strict",
            document: ["formatVersion": 1, "backgroundColor": "rgb(1, 2, 3)", "voided": false, "generic": [:]],
            paths: []),
    ]

    @Test(
        "parse reports exactly the paths it rewrote; the strict form is unchanged exactly when it reports none",
        arguments: cases)
    func reportsRewrittenPaths(_ normalization: Normalization) throws {
        let parsed = try Pass.parse(normalization.document)
        #expect(parsed.normalizedPaths == normalization.paths)
        #expect((parsed.pass.jsonValue == normalization.document) == normalization.paths.isEmpty)
    }

    @Test(
        "every fixture template: a normalized path is reported exactly when the strict form differs",
        .enabled(if: PackagePaths.hasFixtures, PackagePaths.noFixtures))
    func fixtureTemplates() throws {
        let fixtures = Fixtures.templatePassJSONs()
        try #require(!fixtures.isEmpty, "no templates/*/pass.json in ../shared/fixtures")
        for (name, bytes) in fixtures {
            let document = try JSONReader.parse(bytes).value
            let parsed = try Pass.parse(document)
            #expect(parsed.normalizedPaths.isEmpty == (parsed.pass.jsonValue == document), "\(name)")
        }
    }
}
