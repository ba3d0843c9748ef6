import PassModel
import Testing
@testable import PassTemplates

@Suite("Tiers: per-tier pass keys and images")
struct TemplateTierTests {
    static let files: [String: [UInt8]] = [
        "pass.json": Array(
            """
            {"serialNumber": "1", "backgroundColor": "rgb(108, 117, 128)", "labelColor": "rgb(1, 2, 3)",
             "logoText": "Status", "generic": {"headerFields": [{"key": "tier", "value": "{{tier}}"}]}}
            """.utf8),
        "template.json": Array(
            """
            {"fields": [{"name": "tier", "type": "enum", "values": ["Silver", "Gold", "Platinum"], "default": "Silver"},
                        {"name": "name", "default": "Ada"}],
             "tiers": {"field": "tier", "values": {
               "Gold": {"pass": {"backgroundColor": "rgb(150, 112, 28)", "labelColor": null, "logoText": "Gold for {{name}}"},
                        "images": {"strip.png": "tiers/gold/strip.png", "en.lproj/logo.png": "tiers/gold/logo-en.png"}},
               "Platinum": {"images": {"strip.png": "strip-platinum.png"}}
             }}}
            """.utf8),
        "strip.png": TemplateFolder.image("base-strip"),
        "strip-platinum.png": TemplateFolder.image("platinum-strip"),
        "tiers/gold/strip.png": TemplateFolder.image("gold-strip"),
        "tiers/gold/logo-en.png": TemplateFolder.image("gold-logo-en"),
        "tiers/unused.png": TemplateFolder.image("unused"),
        "en.lproj/logo.png": TemplateFolder.image("base-logo-en"),
    ]

    func withTemplate(_ body: (Template) throws -> Void) throws {
        try TemplateFolder.with(Self.files) { dir in try body(try Template.load(directory: dir)) }
    }

    func render(_ template: Template, tier: String) throws -> RenderedPass {
        try template.render(template.resolve(["tier": tier]), context: RenderContext(serialNumber: "S"))
    }

    @Test("the tier field and tier sources are known after loading; unused files in tiers/ warn")
    func loaded() throws {
        try withTemplate { template in
            #expect(template.tierField == "tier")
            #expect(template.tiers.keys.sorted() == ["Gold", "Platinum"])
            #expect(template.tiers["Gold"]?.images["strip.png"] == "tiers/gold/strip.png")
            #expect(template.warnings.count == 1)
            #expect(
                template.warnings.first?.contains("/tiers/: folder skipped (1 file(s) not used as tier images)") == true
            )
        }
    }

    @Test("Gold changes colours, removes a null key, substitutes placeholders and swaps images")
    func gold() throws {
        try withTemplate { template in
            let pass = try render(template, tier: "Gold")
            #expect(pass.passJSON["backgroundColor"] == "rgb(150, 112, 28)")
            #expect(pass.passJSON["labelColor"] == nil)
            #expect(pass.passJSON["logoText"] == "Gold for Ada")
            #expect(pass.passJSON.at("generic.headerFields[0].value") == "Gold")
            #expect(pass.file("strip.png")?.bytes == TemplateFolder.image("gold-strip"))
            #expect(pass.file("strip.png")?.isSharedAsset == false)
            #expect(pass.file("en.lproj/logo.png")?.bytes == TemplateFolder.image("gold-logo-en"))
            #expect(pass.files.map(\.path) == ["en.lproj/logo.png", "strip.png"])
        }
    }

    @Test("a tier without pass overrides only swaps images")
    func platinum() throws {
        try withTemplate { template in
            let pass = try render(template, tier: "Platinum")
            #expect(pass.passJSON["backgroundColor"] == "rgb(108, 117, 128)")
            #expect(pass.file("strip.png")?.bytes == TemplateFolder.image("platinum-strip"))
        }
    }

    @Test("a tier value with no entry uses the base pass; tier sources never appear as files")
    func baseTier() throws {
        try withTemplate { template in
            let pass = try render(template, tier: "Silver")
            #expect(pass.passJSON["backgroundColor"] == "rgb(108, 117, 128)")
            #expect(pass.passJSON["labelColor"] == "rgb(1, 2, 3)")
            #expect(pass.file("strip.png")?.bytes == TemplateFolder.image("base-strip"))
            #expect(pass.file("strip.png")?.isSharedAsset == true)
            #expect(pass.file("strip-platinum.png") == nil)
            #expect(!pass.files.contains { $0.path.hasPrefix("tiers/") })
        }
    }

    @Test("a free-text tier field with an unlisted value uses the base pass")
    func freeTextTier() throws {
        let (template, _) = try TemplateFolder.load([
            "pass.json": #"{"serialNumber": "1", "backgroundColor": "rgb(0, 0, 0)"}"#,
            "template.json":
                #"{"fields": [{"name": "level"}], "tiers": {"field": "level", "values": {"vip": {"pass": {"backgroundColor": "rgb(1, 1, 1)"}}}}}"#,
        ])
        let vip = try template.render(template.resolve(["level": "vip"]), context: RenderContext())
        #expect(vip.passJSON["backgroundColor"] == "rgb(1, 1, 1)")
        let other = try template.render(template.resolve(["level": "basic"]), context: RenderContext())
        #expect(other.passJSON["backgroundColor"] == "rgb(0, 0, 0)")
        let none = try template.render(template.resolve([:]), context: RenderContext())
        #expect(none.passJSON["backgroundColor"] == "rgb(0, 0, 0)")
    }
}
