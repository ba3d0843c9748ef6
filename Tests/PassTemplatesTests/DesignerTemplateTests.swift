import PassModel
import Testing
@testable import PassTemplates

@Suite("Pass Designer templates: personalization by field key")
struct DesignerTemplateTests {
    static func render(_ template: Template, _ record: [String: String]) throws -> RenderedPass {
        try template.render(template.resolve(record), context: RenderContext(serialNumber: "S-1"))
    }

    @Test("a record key sets the value of every field with that key, in every group of both style dictionaries")
    func everyGroupBothDictionaries() throws {
        let template = try DesignerSample.load()
        #expect(template.isDesignerTemplate)
        let pass = try Self.render(
            template,
            [
                "TIER": "Platinum", "MEMBER_NAME": "Ada Lovelace", "POINTS": "99", "MEMBER_ID": "ID-7",
                "SINCE": "2024-02-29", "BALANCE": "3.25",
            ]
        ).passJSON
        let expected: [(String, JSONValue, Int)] = [
            ("TIER", "Platinum", 2), ("MEMBER_NAME", "Ada Lovelace", 2), ("POINTS", .integer(99), 2),
            ("MEMBER_ID", "ID-7", 2), ("SINCE", "2024-02-29T00:00:00Z", 2), ("BALANCE", .double(3.25), 2),
        ]
        for (key, value, count) in expected {
            let found = DesignerSample.values(of: key, in: pass)
            #expect(found.count == count, "\(key): \(found)")
            #expect(found.values.allSatisfy { $0 == value }, "\(key): \(found)")
        }
        // footer, additionalInfo and back are covered too
        #expect(pass.at("posterGeneric.footerFields[0].value") == "ID-7")
        #expect(pass.at("posterGeneric.additionalInfoFields[0].value") == .double(3.25))
        // other attributes stay
        #expect(pass.at("posterGeneric.headerFields[0].changeMessage") == "Now %@")
        #expect(pass.at("generic.primaryFields[0].label") == "MEMBER")
        #expect(pass.at("posterGeneric.primaryFields[1].numberStyle") == "PKNumberStyleDecimal")
    }

    @Test("keys become optional implicit fields, typed and defaulted from the template's values")
    func implicitFields() throws {
        let template = try DesignerSample.load()
        let byName = Dictionary(uniqueKeysWithValues: template.fields.map { ($0.name, $0) })
        #expect(byName["POINTS"]?.kind == .integer)
        #expect(byName["BALANCE"]?.kind == .decimal)
        #expect(byName["SINCE"]?.kind == .date)
        #expect(byName["MEMBER_NAME"]?.kind == .string)
        #expect(template.fields.allSatisfy { !$0.required })
        #expect(byName["POINTS"]?.defaultValue == "1200")
        #expect(template.keyFields == ["TIER", "MEMBER_NAME", "POINTS", "MEMBER_ID", "SINCE", "BALANCE"])
        // With no record the pass keeps the template's values.
        let pass = try Self.render(template, [:]).passJSON
        #expect(pass.at("posterGeneric.primaryFields[1].value") == .integer(1200))
        #expect(pass.at("generic.primaryFields[0].value") == "Alex Sample")
    }

    @Test("a value of the wrong type for a typed key is an error naming the key and the expected form")
    func typedKeys() throws {
        let template = try DesignerSample.load()
        #expect(
            throws: TemplateError.invalidValue(
                field: "POINTS", value: "lots", expected: "a whole number such as 1200",
                file: "club.pkpasstemplate/pass.json")
        ) { try template.resolve(["POINTS": "lots"]) }
    }

    @Test("keys whose values differ between dictionaries have no default: each field keeps its own value")
    func differingValues() throws {
        let changed = DesignerSample.passJSON.replacingOccurrences(
            of: "\"label\": \"MEMBER\", \"value\": \"Alex Sample\"",
            with: "\"label\": \"MEMBER\", \"value\": \"A. Sample\"")
        let template = try DesignerSample.load(["pass.json": changed])
        #expect(template.fields.first { $0.name == "MEMBER_NAME" }?.defaultValue == nil)
        let pass = try Self.render(template, [:]).passJSON
        #expect(pass.at("posterGeneric.primaryFields[0].value") == "Alex Sample")
        #expect(pass.at("generic.primaryFields[0].value") == "A. Sample")
        let given = try Self.render(template, ["MEMBER_NAME": "Ada"]).passJSON
        #expect(DesignerSample.values(of: "MEMBER_NAME", in: given).values.allSatisfy { $0 == "Ada" })
    }

    @Test("an unknown key is an error with a did-you-mean for checkRecordKeys, a warning for resolve")
    func unknownKeys() throws {
        let template = try DesignerSample.load()
        do {
            try template.checkRecordKeys(["MEMBER_NAM": "x"])
            Issue.record("expected an error")
        } catch {
            #expect(
                error
                    == .unknownRecordKey(
                        key: "MEMBER_NAM", file: "club.pkpasstemplate/pass.json",
                        suggestion: "MEMBER_NAME", known: template.fields.map(\.name)))
            #expect(error.description.contains("did you mean \"MEMBER_NAME\"?"))
            #expect(error.description.contains("barcode.message"))
        }
        try template.checkRecordKeys([
            "MEMBER_NAME": "x", "barcode.message": "m", "image.thumbnail": "p.png",
            "serialNumber": "1",
        ])
        #expect(throws: TemplateError.self) { try template.checkRecordKeys(["barcode.mesage": "m"]) }
        let resolved = try template.resolve(["MEMBER_NAM": "x"])
        #expect(resolved.warnings.count == 1)
        #expect(resolved.warnings[0].contains("did you mean \"MEMBER_NAME\"?"))
        // and it changes nothing
        #expect(
            try Self.render(template, ["MEMBER_NAM": "x"]).passJSON.at("generic.primaryFields[0].value")
                == "Alex Sample")
    }

    @Test("placeholders and keys mix in one template; a value is never scanned for placeholders")
    func mixed() throws {
        let pass = DesignerSample.passJSON.replacingOccurrences(
            of: "\"description\": \"Club card\"", with: "\"description\": \"Club card of {{city}}\"")
        let template = try DesignerSample.load(["pass.json": pass])
        #expect(template.fields.first { $0.name == "city" }?.required == true)
        let rendered = try Self.render(template, ["city": "Paris", "MEMBER_NAME": "{{city}}"]).passJSON
        #expect(rendered["description"] == "Club card of Paris")
        #expect(rendered.at("posterGeneric.primaryFields[0].value") == "{{city}}")
    }

    @Test("without template.json a placeholder named like a key is that key's field: optional, with its value")
    func placeholderNamedLikeKey() throws {
        let pass = DesignerSample.passJSON.replacingOccurrences(
            of: "\"description\": \"Club card\"", with: "\"description\": \"Card of {{MEMBER_NAME}}\"")
        let template = try DesignerSample.load(["pass.json": pass])
        let field = try #require(template.fields.first { $0.name == "MEMBER_NAME" })
        #expect(!field.required)
        #expect(template.fields.filter { $0.name == "MEMBER_NAME" }.count == 1)
        #expect(try Self.render(template, [:]).passJSON["description"] == "Card of Alex Sample")
        let given = try Self.render(template, ["MEMBER_NAME": "Ada"]).passJSON
        #expect(given["description"] == "Card of Ada")
        #expect(given.at("generic.primaryFields[0].value") == "Ada")
    }

    @Test("a template.json field named like a key types it, and its default fills every field with the key")
    func templateJSONFieldNamedLikeKey() throws {
        let templateJSON = """
            {"fields": [{"name": "POINTS", "type": "decimal", "default": "5"},
                        {"name": "MEMBER_NAME", "type": "string", "required": true}]}
            """
        let template = try DesignerSample.load(["template.json": templateJSON])
        #expect(template.fields.first { $0.name == "POINTS" }?.kind == .decimal)
        #expect(template.keyFields.contains("POINTS"))
        #expect(throws: TemplateError.missingValue(field: "MEMBER_NAME", file: "club.pkpasstemplate/template.json")) {
            try template.resolve([:])
        }
        let pass = try Self.render(template, ["MEMBER_NAME": "Ada"]).passJSON
        #expect(DesignerSample.values(of: "POINTS", in: pass).values.allSatisfy { $0 == .double(5) })
        // Keys template.json does not declare are still implicit fields.
        #expect(template.fields.first { $0.name == "TIER" }?.kind == .string)
    }

    @Test("a plain template (not .pkpasstemplate, no tooling.json) is not personalized by key")
    func plainTemplateNotByKey() throws {
        let template = try DesignerSample.load(["tooling.json": ""], name: "club")
        #expect(!template.isDesignerTemplate)
        #expect(template.fields.isEmpty)
        #expect(template.keyFields.isEmpty)
        let named = try DesignerSample.load(["tooling.json": ""], name: "Club.PKPASSTEMPLATE")
        #expect(named.isDesignerTemplate)
        let tooled = try DesignerSample.load(name: "club")
        #expect(tooled.isDesignerTemplate)
    }

    @Test("a pass field key equal to a reserved record key is left alone with a warning")
    func reservedKeyAsFieldKey() throws {
        let pass = DesignerSample.passJSON.replacingOccurrences(
            of: "\"key\": \"MEMBER_ID\"", with: "\"key\": \"serialNumber\"")
        let template = try DesignerSample.load(["pass.json": pass])
        #expect(!template.fields.contains { $0.name == "serialNumber" })
        #expect(template.warnings.contains { $0.contains("pass field key \"serialNumber\" is a reserved record key") })
    }
}
