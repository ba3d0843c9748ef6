import PassModel
import Testing
@testable import PassTemplates

/// Real template folders from `../shared/fixtures/templates` (skipped when the folder is absent).
@Suite("Fixture templates", .enabled(if: PackagePaths.hasFixtures, PackagePaths.noFixtures))
struct FixtureTemplateTests {
    static let names = ["apple-BoardingPass", "apple-Event", "apple-StoreCard", "django-walletpass-StoreCard"]

    @Test("every fixture template loads and renders as a plain .pass folder", arguments: names)
    func loadsAndRenders(name: String) throws {
        let template = try Template.load(directory: try #require(PackagePaths.fixture("templates/\(name)")))
        #expect(template.fields.isEmpty)
        #expect(template.hasLiteralSerialNumber)
        #expect(template.warnings.isEmpty)
        let context = RenderContext(passTypeIdentifier: "pass.dev.passmint", teamIdentifier: "DEVTEAM")
        let pass = try template.render(template.resolve([:]), context: context)
        #expect(pass.passJSON["serialNumber"] == template.passJSON["serialNumber"])
        #expect(pass.passJSON["passTypeIdentifier"] == "pass.dev.passmint")
        #expect(pass.warnings.count == 2)  // both identifiers differ from the dev certificate's
        #expect(pass.files.contains { $0.path == "icon.png" })
        #expect(pass.files.map(\.path) == pass.files.map(\.path).sorted())
        let reread = try JSONReader.parse(JSONWriter.serialize(pass.passJSON), file: "out")
        #expect(reread.isStrict)
        #expect(reread.value == pass.passJSON)
    }

    @Test("apple-BoardingPass: trailing commas are reported as leniencies")
    func boardingPassLeniencies() throws {
        let template = try Template.load(directory: try #require(PackagePaths.fixture("templates/apple-BoardingPass")))
        #expect(!template.leniencies.isEmpty)
        #expect(template.leniencies.allSatisfy { $0.kind == .trailingComma })
        #expect(template.leniencies.contains { $0.path == "boardingPass.auxiliaryFields[3]" })
    }

    @Test("django-walletpass: two localizations with the same keys, written as UTF-16LE with BOM")
    func djangoLocalizations() throws {
        let template = try Template.load(
            directory: try #require(PackagePaths.fixture("templates/django-walletpass-StoreCard")))
        #expect(template.localizations == ["en.lproj", "es.lproj"])
        let pass = try template.render(template.resolve([:]), context: RenderContext())
        let en = try #require(pass.file("en.lproj/pass.strings"))
        let es = try #require(pass.file("es.lproj/pass.strings"))
        #expect(Array(en.bytes.prefix(2)) == [0xFF, 0xFE])
        #expect(Array(es.bytes.prefix(2)) == [0xFF, 0xFE])
        #expect(en.isSharedAsset && es.isSharedAsset)
        let enEntries = try PassStrings.parse(en.bytes, file: "en")
        let esEntries = try PassStrings.parse(es.bytes, file: "es")
        #expect(Set(enEntries.map(\.key)) == Set(esEntries.map(\.key)))
        #expect(Set(enEntries.map(\.key)) == ["remaining_balance", "deal_of_the_day"])
        #expect(esEntries.first { $0.key == "deal_of_the_day" }?.value == "Oferta del día")
    }
}
