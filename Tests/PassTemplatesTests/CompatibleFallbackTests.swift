import PassModel
import Testing
@testable import PassTemplates

@Suite("Compatible fallback: generic derived from posterGeneric")
struct CompatibleFallbackTests {
    /// DesignerSample's pass.json without its own generic dictionary.
    static var posterOnly: String {
        let json = try! JSONReader.parse(Array(DesignerSample.passJSON.utf8), file: "x").value
        var root = json.objectValue!
        root.removeValue(forKey: "generic")
        return String(decoding: JSONWriter.serialize(.object(root)), as: UTF8.self)
    }

    static func tooling(_ flag: Bool) -> String { "{\"automaticallyGenerateCompatiblePass\": \(flag)}" }

    @Test(
        "the mapping: header→header, first primary→primary, further primaries→secondary, footer→auxiliary, back+additionalInfo→back"
    )
    func mapping() throws {
        let template = try DesignerSample.load(["pass.json": Self.posterOnly, "tooling.json": Self.tooling(true)])
        #expect(template.generatesCompatiblePass)
        let pass = try template.render(template.resolve([:]), context: RenderContext(serialNumber: "1")).passJSON
        func keys(_ group: String) -> [String] {
            (pass.at("generic.\(group)")?.arrayValue ?? []).compactMap { $0["key"]?.stringValue }
        }
        #expect(keys("headerFields") == ["TIER"])
        #expect(keys("primaryFields") == ["MEMBER_NAME"])
        #expect(keys("secondaryFields") == ["POINTS"])
        #expect(keys("auxiliaryFields") == ["MEMBER_ID"])
        #expect(keys("backFields") == ["SINCE", "BALANCE"])
        #expect(pass.at("generic.footerFields") == nil)
        #expect(pass.at("generic.additionalInfoFields") == nil)
        // whole field dictionaries are copied
        #expect(pass.at("generic.secondaryFields[0].numberStyle") == "PKNumberStyleDecimal")
        #expect(pass["posterGeneric"] != nil)
    }

    @Test("personalization by key fills posterGeneric and the derived generic alike")
    func personalizedBoth() throws {
        let template = try DesignerSample.load(["pass.json": Self.posterOnly, "tooling.json": Self.tooling(true)])
        let pass = try template.render(
            template.resolve(["MEMBER_NAME": "Ada", "POINTS": "7"]),
            context: RenderContext(serialNumber: "1")
        ).passJSON
        #expect(
            DesignerSample.values(of: "MEMBER_NAME", in: pass) == [
                "posterGeneric.primaryFields": "Ada", "generic.primaryFields": "Ada",
            ])
        #expect(
            DesignerSample.values(of: "POINTS", in: pass) == [
                "posterGeneric.primaryFields": .integer(7), "generic.secondaryFields": .integer(7),
            ])
    }

    @Test("without the tooling flag nothing is derived unless the context asks for it")
    func onlyWhenAsked() throws {
        let template = try DesignerSample.load(["pass.json": Self.posterOnly, "tooling.json": Self.tooling(false)])
        let plain = try template.render(template.resolve([:]), context: RenderContext(serialNumber: "1"))
        #expect(plain.passJSON["generic"] == nil)
        let asked = try template.render(
            template.resolve([:]), context: RenderContext(serialNumber: "1", compatiblePass: true))
        #expect(asked.passJSON.at("generic.primaryFields[0].key") == "MEMBER_NAME")
    }

    @Test("a template's own fallback wins over the derived one")
    func ownFallbackWins() throws {
        let template = try DesignerSample.load(["tooling.json": Self.tooling(true)])
        let pass = try template.render(template.resolve([:]), context: RenderContext(serialNumber: "1")).passJSON
        #expect(pass.at("generic.primaryFields[0].label") == "MEMBER")
        #expect(pass.at("generic.auxiliaryFields[0].key") == "MEMBER_ID")
        #expect(pass.at("generic.secondaryFields[0].numberStyle") == nil)
    }

    @Test("a pass without posterGeneric is left alone")
    func noPoster() throws {
        let generic = ["generic": JSONValue.object(["primaryFields": .array([])])]
        var root = generic
        CompatibleFallback.apply(to: &root)
        #expect(root == generic)
    }
}
