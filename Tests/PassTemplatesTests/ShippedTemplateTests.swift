import PassModel
import Testing
@testable import PassTemplates

/// The templates under `Templates/` must work with no record values at all (DESIGN.md contract).
@Suite("Shipped templates")
struct ShippedTemplateTests {
    @Test("each shipped template renders from defaults alone", arguments: ["loyalty", "status", "event"])
    func rendersFromDefaults(name: String) throws {
        guard Paths.shippedTemplatePresent(name) else {
            print("Templates/\(name) is not present yet; skipped")
            return
        }
        let template = try Template.load(directory: Paths.shippedTemplate(name))
        #expect(template.hasTemplateJSON)
        #expect(template.warnings.isEmpty, "\(template.warnings)")
        #expect(template.leniencies.isEmpty)
        #expect(template.fields.allSatisfy { $0.defaultValue != nil }, "every field needs a default")
        let pass = try template.render(template.resolve([:]), context: RenderContext(serialNumber: "SN-1"))
        #expect(pass.passJSON["serialNumber"] == "SN-1")
        let text = String(decoding: JSONWriter.serialize(pass.passJSON), as: UTF8.self)
        #expect(!text.contains("{{"), "unsubstituted placeholder in \(name)")
    }

    @Test("status: Gold and Platinum change colours and thumbnail")
    func statusTiers() throws {
        guard Paths.shippedTemplatePresent("status") else { return }
        let template = try Template.load(directory: Paths.shippedTemplate("status"))
        #expect(template.tierField == "tier")
        let context = RenderContext(serialNumber: "1")
        let silver = try template.render(template.resolve(["tier": "Silver"]), context: context)
        let gold = try template.render(template.resolve(["tier": "Gold"]), context: context)
        #expect(silver.passJSON["backgroundColor"] != gold.passJSON["backgroundColor"])
        #expect(silver.file("thumbnail.png")?.bytes != gold.file("thumbnail.png")?.bytes)
        #expect(gold.file("thumbnail.png") != nil)
        #expect(gold.passJSON.at("generic.secondaryFields[0].value")?.isNumber == true)
    }
}
