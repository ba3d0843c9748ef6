import PassModel
import Testing
@testable import PassTemplates

@Suite("Template.render: substitution, serial, identifiers, localization")
struct TemplateRenderTests {
    static let templateJSON = """
        {"fields": [
          {"name": "name", "type": "string", "default": "Ada"},
          {"name": "points", "type": "integer", "default": "1200"},
          {"name": "balance", "type": "decimal", "default": "21.75"},
          {"name": "since", "type": "date", "default": "2019-03-14"},
          {"name": "bonus", "type": "integer"},
          {"name": "code", "type": "string", "default": "123"}
        ]}
        """
    static let passJSON = """
        {"formatVersion": 1, "serialNumber": "{{serialNumber}}", "description": "Card of {{name}}",
         "barcodes": [{"format": "PKBarcodeFormatQR", "message": "{{ serialNumber }}/{{code}}", "messageEncoding": "iso-8859-1"}],
         "storeCard": {
           "primaryFields": [{"key": "points", "label": "POINTS", "value": "{{points}}"}],
           "secondaryFields": [{"key": "name", "label": "MEMBER", "value": "{{name}}"},
                               {"key": "balance", "label": "BALANCE", "value": "{{balance}}", "currencyCode": "USD"},
                               {"key": "since", "label": "SINCE", "value": "{{since}}", "dateStyle": "PKDateStyleShort"}],
           "auxiliaryFields": [{"key": "text", "label": "T", "value": "{{points}} points, {{balance}} USD"},
                               {"key": "bonus", "label": "B", "value": "{{bonus}}"},
                               {"key": "code", "label": "C", "value": "{{code}}"}]
         }}
        """

    static func template(extra: [String: String] = [:]) throws -> Template {
        var files = ["pass.json": passJSON, "template.json": templateJSON]
        files.merge(extra) { _, new in new }
        return try TemplateFolder.load(files).0
    }

    static func render(_ record: [String: String], _ context: RenderContext = RenderContext(serialNumber: "S-1"))
        throws -> RenderedPass
    {
        let template = try template()
        return try template.render(template.resolve(record), context: context)
    }

    @Test("a value that looks like JSON stays one literal string")
    func injection() throws {
        let evil = #"","voided":true,"x":""#
        let pass = try Self.render(["name": evil])
        #expect(pass.passJSON.at("storeCard.secondaryFields[0].value") == .string(evil))
        #expect(pass.passJSON.at("description") == .string("Card of " + evil))
        #expect(pass.passJSON["voided"] == nil)
        #expect(pass.passJSON["x"] == nil)
        let bytes = JSONWriter.serialize(pass.passJSON)
        let reread = try JSONReader.parse(bytes, file: "out")
        #expect(reread.isStrict)
        #expect(reread.value == pass.passJSON)
        #expect(reread.value["voided"] == nil)
    }

    @Test("a value containing {{…}} is not substituted again")
    func singlePass() throws {
        let pass = try Self.render(["name": "{{points}} {{serialNumber}}"])
        #expect(pass.passJSON.at("storeCard.secondaryFields[0].value") == "{{points}} {{serialNumber}}")
    }

    @Test("an exact integer or decimal placeholder becomes a JSON number; elsewhere it is text")
    func numbers() throws {
        let pass = try Self.render(["points": "0042", "balance": "010.50"])
        #expect(pass.passJSON.at("storeCard.primaryFields[0].value") == .integer(42))
        #expect(pass.passJSON.at("storeCard.secondaryFields[1].value") == .double(10.5))
        #expect(pass.passJSON.at("storeCard.auxiliaryFields[0].value") == "42 points, 10.50 USD")
        // A string field stays a string even when its value is digits.
        #expect(pass.passJSON.at("storeCard.auxiliaryFields[2].value") == "123")
        // An optional number without value or default becomes the empty string.
        #expect(pass.passJSON.at("storeCard.auxiliaryFields[1].value") == "")
        let withBonus = try Self.render(["bonus": "5"])
        #expect(withBonus.passJSON.at("storeCard.auxiliaryFields[1].value") == .integer(5))
        #expect(
            String(decoding: JSONWriter.serialize(pass.passJSON, pretty: false), as: UTF8.self)
                .contains(#"{"key":"points","label":"POINTS","value":42}"#))
    }

    @Test("dates are written normalised")
    func dates() throws {
        let pass = try Self.render(["since": "2020-01-31T09:15+01:00"])
        #expect(pass.passJSON.at("storeCard.secondaryFields[2].value") == "2020-01-31T09:15:00+01:00")
        let byDefault = try Self.render([:])
        #expect(byDefault.passJSON.at("storeCard.secondaryFields[2].value") == "2019-03-14T00:00:00Z")
    }

    @Test("the context's serial number sets serialNumber and fills {{serialNumber}}")
    func serialFromContext() throws {
        let pass = try Self.render([:], RenderContext(serialNumber: "M-77"))
        #expect(pass.passJSON["serialNumber"] == "M-77")
        #expect(pass.passJSON.at("barcodes[0].message") == "M-77/123")
    }

    @Test("without a serial number in the context a {{serialNumber}} template fails")
    func serialMissing() throws {
        let template = try Self.template()
        #expect(throws: TemplateError.missingSerialNumber(file: template.directory + "/pass.json")) {
            try template.render(template.resolve([:]), context: RenderContext())
        }
        let (noSerial, dir) = try TemplateFolder.load(["pass.json": #"{"description": "x"}"#])
        let error = #expect(throws: TemplateError.self) {
            try noSerial.render(ResolvedRecord(values: [:]), context: RenderContext())
        }
        #expect(error == .missingSerialNumber(file: dir + "/pass.json"))
        #expect(error?.description.contains("serialNumber") == true)
    }

    @Test("a literal serial number is kept, a context serial replaces it, a derived one is built from fields")
    func literalAndDerivedSerial() throws {
        let (literal, _) = try TemplateFolder.load([
            "pass.json": #"{"serialNumber": "LIT-1", "logoText": "{{serialNumber}}"}"#
        ])
        #expect(literal.hasLiteralSerialNumber)
        let kept = try literal.render(ResolvedRecord(values: [:]), context: RenderContext())
        #expect(kept.passJSON["serialNumber"] == "LIT-1")
        #expect(kept.passJSON["logoText"] == "LIT-1")
        let replaced = try literal.render(ResolvedRecord(values: [:]), context: RenderContext(serialNumber: "NEW"))
        #expect(replaced.passJSON["serialNumber"] == "NEW")
        let (derived, _) = try TemplateFolder.load([
            "pass.json": #"{"serialNumber": "M-{{member}}", "logoText": "{{serialNumber}}"}"#,
            "template.json": #"{"fields": [{"name": "member", "required": true}]}"#,
        ])
        #expect(!derived.hasLiteralSerialNumber)
        let pass = try derived.render(derived.resolve(["member": "9"]), context: RenderContext())
        #expect(pass.passJSON["serialNumber"] == "M-9")
        #expect(pass.passJSON["logoText"] == "M-9")
    }

    @Test("certificate identifiers fill missing keys silently and override different ones with a warning")
    func identifiers() throws {
        let context = RenderContext(serialNumber: "1", passTypeIdentifier: "pass.cert.id", teamIdentifier: "CERTTEAM")
        let missing = try Self.render([:], context)
        #expect(missing.passJSON["passTypeIdentifier"] == "pass.cert.id")
        #expect(missing.passJSON["teamIdentifier"] == "CERTTEAM")
        #expect(missing.warnings.isEmpty)

        let (own, dir) = try TemplateFolder.load([
            "pass.json":
                #"{"serialNumber": "1", "passTypeIdentifier": "pass.template.id", "teamIdentifier": "CERTTEAM"}"#
        ])
        let pass = try own.render(ResolvedRecord(values: [:]), context: context)
        #expect(pass.passJSON["passTypeIdentifier"] == "pass.cert.id")
        #expect(pass.warnings.count == 1)
        let warning = pass.warnings.first ?? ""
        #expect(warning.hasPrefix(dir + "/pass.json: passTypeIdentifier"))
        #expect(warning.contains("\"pass.template.id\""))
        #expect(warning.contains("\"pass.cert.id\""))
        let untouched = try own.render(ResolvedRecord(values: [:]), context: RenderContext())
        #expect(untouched.passJSON["passTypeIdentifier"] == "pass.template.id")
    }

    @Test("webServiceURL and authenticationToken are written when given")
    func webService() throws {
        let token = String(repeating: "ab", count: 16)
        let pass = try Self.render(
            [:], RenderContext(serialNumber: "1", webServiceURL: "https://passes.example/", authenticationToken: token))
        #expect(pass.passJSON["webServiceURL"] == "https://passes.example/")
        #expect(pass.passJSON["authenticationToken"] == .string(token))
        let plain = try Self.render([:])
        #expect(plain.passJSON["webServiceURL"] == nil)
        #expect(plain.passJSON["authenticationToken"] == nil)
    }

    @Test("record warnings reach the rendered pass")
    func recordWarnings() throws {
        let pass = try Self.render(["nmae": "x"])
        #expect(pass.warnings.count == 1)
        #expect(pass.warnings[0].contains("did you mean \"name\"?"))
    }

    @Test("pass.strings: UTF-8 input is written UTF-16LE with BOM; placeholders in values are substituted")
    func localization() throws {
        let template = try Self.template(extra: [
            "en.lproj/pass.strings":
                "\"greeting\" = \"Hello {{name}}, you have {{points}} points\";\n\"plain\" = \"Café\";",
            "fr.lproj/pass.strings": "\"greeting\" = \"Bonjour\";\n\"plain\" = \"Café\";",
            "icon.png": "png",
        ])
        let pass = try template.render(template.resolve(["name": "Zoë"]), context: RenderContext(serialNumber: "1"))
        #expect(pass.files.map(\.path) == ["en.lproj/pass.strings", "fr.lproj/pass.strings", "icon.png"])
        let en = try #require(pass.file("en.lproj/pass.strings"))
        let fr = try #require(pass.file("fr.lproj/pass.strings"))
        for file in [en, fr] { #expect(Array(file.bytes.prefix(2)) == [0xFF, 0xFE]) }
        #expect(!en.isSharedAsset)
        #expect(fr.isSharedAsset)
        #expect(
            try PassStrings.parse(en.bytes, file: "en").map(\.value) == ["Hello Zoë, you have 1200 points", "Café"])
        #expect(fr.bytes == PassStrings.serialize([("greeting", "Bonjour"), ("plain", "Café")]))
        #expect(pass.file("icon.png")?.isSharedAsset == true)
        #expect(pass.file("template.json") == nil)
        #expect(pass.file("pass.json") == nil)
    }
}

@Suite("Template.render: UTF-16 pass.strings input")
struct TemplateRenderUTF16Tests {
    @Test("UTF-16BE input with BOM comes out as UTF-16LE with BOM, same entries")
    func bigEndianInput() throws {
        let text = "/* c */\n\"title\" = \"Grüße {{name}}\";\n"
        var be: [UInt8] = [0xFE, 0xFF]
        for unit in text.utf16 { be += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        try TemplateFolder.with([
            "pass.json": Array(#"{"serialNumber": "1", "description": "title"}"#.utf8),
            "de.lproj/pass.strings": be,
        ]) { dir in
            let template = try Template.load(directory: dir)
            #expect(template.fields == [TemplateField(name: "name", kind: .string, required: true)])
            let pass = try template.render(template.resolve(["name": "Jörg"]), context: RenderContext())
            let file = try #require(pass.file("de.lproj/pass.strings"))
            #expect(file.bytes == PassStrings.serialize([("title", "Grüße Jörg")]))
            #expect(Array(file.bytes.prefix(4)) == [0xFF, 0xFE, 0x22, 0x00])
        }
    }
}
