import Foundation
import PassModel
import Testing
@testable import PassTemplates

/// The templates under `Templates/` must work with no record values at all (DESIGN.md contract). They ship with
/// the package, so a missing one fails these tests; none is skipped.
@Suite("Shipped templates")
struct ShippedTemplateTests {
    /// `Templates/<name>`, loaded; fails the test when the package lacks it.
    private func shipped(_ name: String) throws -> Template {
        let directory = PackagePaths.template(name)
        try #require(
            FileManager.default.fileExists(atPath: directory + "/pass.json"),
            "Templates/\(name)/pass.json is missing: the package ships this template")
        return try Template.load(directory: directory)
    }

    @Test("each shipped template renders from defaults alone", arguments: ["loyalty", "status", "event"])
    func rendersFromDefaults(name: String) throws {
        let template = try shipped(name)
        #expect(template.hasTemplateJSON)
        #expect(template.warnings.isEmpty, "\(template.warnings)")
        #expect(template.leniencies.isEmpty)
        // An image field (status's member photo) is optional without a default: the template's image is used.
        #expect(
            template.fields.allSatisfy { $0.defaultValue != nil || $0.kind == .image }, "every field needs a default")
        let pass = try template.render(template.resolve([:]), context: RenderContext(serialNumber: "SN-1"))
        #expect(pass.passJSON["serialNumber"] == "SN-1")
        let text = String(decoding: JSONWriter.serialize(pass.passJSON), as: UTF8.self)
        #expect(!text.contains("{{"), "unsubstituted placeholder in \(name)")
    }

    @Test("status: Gold and Platinum change colours and thumbnail")
    func statusTiers() throws {
        let template = try shipped("status")
        #expect(template.tierField == "tier")
        let context = RenderContext(serialNumber: "1")
        let silver = try template.render(template.resolve(["tier": "Silver"]), context: context)
        let gold = try template.render(template.resolve(["tier": "Gold"]), context: context)
        #expect(silver.passJSON["backgroundColor"] != gold.passJSON["backgroundColor"])
        #expect(silver.file("thumbnail.png")?.bytes != gold.file("thumbnail.png")?.bytes)
        #expect(gold.file("thumbnail.png") != nil)
        #expect(gold.passJSON.at("generic.secondaryFields[0].value")?.isNumber == true)
    }

    @Test(
        "status: a poster generic membership pass with its generic fallback, per-tier artwork and two featured actions")
    func statusPoster() throws {
        let template = try shipped("status")
        let context = RenderContext(serialNumber: "1")
        let silver = try template.render(template.resolve([:]), context: context)
        let gold = try template.render(template.resolve(["tier": "Gold", "milesToNextTier": "42"]), context: context)
        #expect(gold.passJSON["posterGeneric"] != nil && gold.passJSON["generic"] != nil)
        #expect(gold.passJSON.at("posterGeneric.footerFields")?.arrayValue?.count == 1)
        #expect(gold.passJSON.at("posterGeneric.headerFields[0].changeMessage") != nil)
        #expect(gold.passJSON.at("posterGeneric.primaryFields[1].value") == .integer(42))
        #expect(gold.passJSON.at("posterGeneric.primaryFields[1].changeMessage") != nil)
        for scale in ["", "@2x", "@3x"] {
            #expect(gold.file("artwork\(scale).png") != nil && gold.file("primaryLogo\(scale).png") != nil)
            #expect(gold.file("artwork\(scale).png")?.bytes != silver.file("artwork\(scale).png")?.bytes)
        }
        let actions = try #require(gold.passJSON["featuredActions"]?.arrayValue)
        #expect(actions.count == 2)
        #expect(Set(actions.compactMap { $0["identifier"]?.stringValue }).count == 2)
        #expect(actions.allSatisfy { $0["url"]?.stringValue?.hasPrefix("https://") == true })
        #expect(actions.compactMap { $0["type"]?.stringValue } == ["membershipBenefits", "viewOffersRewards"])
        let photo = try #require(template.fields.first { $0.name == "photo" })
        #expect(photo.kind == .image && photo.imageSlot == "thumbnail" && photo.defaultValue == nil)
        #expect(try template.resolve(["photo": "me.png"]).images == ["thumbnail": "me.png"])
    }

    @Test("loyalty: an EAN-13 with a valid check digit first, then a QR fallback; two featured actions")
    func loyaltyBarcodes() throws {
        let template = try shipped("loyalty")
        let pass = try template.render(template.resolve([:]), context: RenderContext(serialNumber: "1")).passJSON
        let barcodes = try #require(pass["barcodes"]?.arrayValue)
        #expect(barcodes.compactMap { $0["format"]?.stringValue } == ["PKBarcodeFormatEAN13", "PKBarcodeFormatQR"])
        let ean = try #require(barcodes[0]["message"]?.stringValue)
        let digits = ean.compactMap { $0.wholeNumberValue }
        #expect(ean.count == 13 && digits.count == 13)
        let sum = digits.prefix(12).enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
        #expect((10 - sum % 10) % 10 == digits.last)
        #expect(pass["featuredActions"]?.arrayValue?.count == 2)
    }

    @Test("designer-club.pkpasstemplate: personalized by key, tooling.json asks for the compatible fallback")
    func designerClub() throws {
        let template = try shipped("designer-club.pkpasstemplate")
        #expect(template.isDesignerTemplate && template.generatesCompatiblePass && !template.hasTemplateJSON)
        #expect(template.warnings.isEmpty, "\(template.warnings)")
        for key in ["MEMBER_NAME", "MEMBER_ID", "TIER"] { #expect(template.keyFields.contains(key)) }
        let pass = try template.render(template.resolve(["MEMBER_NAME": "Ada"]), context: RenderContext()).passJSON
        #expect(DesignerSample.values(of: "MEMBER_NAME", in: pass).count == 2)
        #expect(pass.at("barcodes[0].format") == "PKBarcodeFormatQR")
    }
}
