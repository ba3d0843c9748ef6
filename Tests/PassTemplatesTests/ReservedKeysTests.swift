import PassModel
import Testing
@testable import PassTemplates

@Suite("Reserved record keys: barcode.message, barcode.altText, relevantDate.start/end, expirationDate")
struct ReservedKeysTests {
    static let passJSON = """
        {"formatVersion": 1, "serialNumber": "1", "description": "d", "relevantDate": "2020-01-01T00:00:00Z",
         "barcode": {"format": "PKBarcodeFormatQR", "message": "old", "messageEncoding": "iso-8859-1"},
         "barcodes": [{"format": "PKBarcodeFormatEAN13", "message": "old", "messageEncoding": "iso-8859-1"},
                      {"format": "PKBarcodeFormatQR", "message": "old", "messageEncoding": "iso-8859-1", "altText": "a"}],
         "generic": {"primaryFields": [{"key": "name", "value": "{{name}}"}]}}
        """

    static func render(_ record: [String: String], pass: String = passJSON) throws -> RenderedPass {
        let (template, _) = try TemplateFolder.load(["pass.json": pass])
        return try template.render(template.resolve(record), context: RenderContext(serialNumber: "1"))
    }

    @Test("barcode.message and barcode.altText are set on every barcode, the deprecated one included")
    func barcodes() throws {
        let pass = try Self.render(["name": "x", "barcode.message": "2000100000014", "barcode.altText": "Member"])
            .passJSON
        for path in ["barcode", "barcodes[0]", "barcodes[1]"] {
            #expect(pass.at(path + ".message") == "2000100000014")
            #expect(pass.at(path + ".altText") == "Member")
            #expect(pass.at(path + ".messageEncoding") == "iso-8859-1")
        }
        #expect(pass.at("barcodes[0].format") == "PKBarcodeFormatEAN13")
    }

    @Test("a pass without a barcode ignores barcode.message with a warning")
    func noBarcode() throws {
        let plain = "{\"formatVersion\": 1, \"serialNumber\": \"1\", \"generic\": {}}"
        let pass = try Self.render(["barcode.message": "m"], pass: plain)
        #expect(pass.passJSON["barcodes"] == nil)
        #expect(pass.warnings.contains { $0.contains("no barcode, so barcode.message changes nothing") })
    }

    @Test("relevantDate.start and .end become relevantDates startDate/endDate; the deprecated key follows the start")
    func period() throws {
        let pass = try Self.render([
            "name": "x", "relevantDate.start": "2027-06-12T19:30+02:00",
            "relevantDate.end": "2027-06-12T23:00:00+0200",
        ]).passJSON
        #expect(
            pass["relevantDates"]
                == .array([
                    .object([
                        "startDate": "2027-06-12T19:30:00+02:00", "endDate": "2027-06-12T23:00:00+02:00",
                    ])
                ]))
        #expect(pass["relevantDate"] == "2027-06-12T19:30:00+02:00")
    }

    @Test("a lone relevantDate.start becomes relevantDates[0].date")
    func loneStart() throws {
        let pass = try Self.render(["name": "x", "relevantDate.start": "2027-06-12"]).passJSON
        #expect(pass["relevantDates"] == .array([.object(["date": "2027-06-12T00:00:00Z"])]))
    }

    @Test("expirationDate replaces the template's, typed like a date; empty keeps the template's; a bad one fails")
    func expirationDate() throws {
        let withOwn = Self.passJSON.replacingOccurrences(
            of: "\"description\": \"d\",", with: "\"description\": \"d\", \"expirationDate\": \"2030-01-01T00:00:00Z\","
        )
        #expect(
            try Self.render(["name": "x", "expirationDate": "2027-03-31"], pass: withOwn)
                .passJSON["expirationDate"] == "2027-03-31T00:00:00Z")
        #expect(
            try Self.render(["name": "x", "expirationDate": ""], pass: withOwn)
                .passJSON["expirationDate"] == "2030-01-01T00:00:00Z")
        #expect(try Self.render(["name": "x"]).passJSON["expirationDate"] == nil)
        #expect(throws: TemplateError.self) { try Self.render(["name": "x", "expirationDate": "soon"]) }
    }

    @Test("a voided context sets voided: true whatever the template says")
    func voided() throws {
        let (template, _) = try TemplateFolder.load([
            "pass.json": Self.passJSON.replacingOccurrences(
                of: "\"description\": \"d\",", with: "\"description\": \"d\", \"voided\": false,")
        ])
        let record = try template.resolve(["name": "x"])
        #expect(
            try template.render(record, context: RenderContext(serialNumber: "1", voided: true))
                .passJSON["voided"] == .bool(true))
        #expect(
            try template.render(record, context: RenderContext(serialNumber: "1"))
                .passJSON["voided"] == .bool(false))
    }

    @Test("reserved values are typed, kept in the resolved record, and an end needs a start")
    func resolved() throws {
        let (template, dir) = try TemplateFolder.load(["pass.json": Self.passJSON])
        let record = try template.resolve(["name": "x", "barcode.message": "m", "relevantDate.start": "2027-01-02"])
        #expect(record.values["barcode.message"] == "m")
        #expect(record.values["relevantDate.start"] == "2027-01-02T00:00:00Z")
        #expect(record.warnings.isEmpty)
        do {
            _ = try template.resolve(["name": "x", "relevantDate.start": "tomorrow"])
            Issue.record("expected an error")
        } catch {
            guard case .invalidValue(let field, let value, let expected, let file) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(field == "relevantDate.start")
            #expect(value == "tomorrow")
            #expect(expected.contains("ISO 8601"))
            #expect(file == dir + "/pass.json")
        }
        do {
            _ = try template.resolve(["name": "x", "relevantDate.end": "2027-01-02"])
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("relevantDate.start as well"))
        }
    }

    @Test("template.json cannot declare a field named like a reserved key")
    func reservedFieldName() throws {
        for name in ["barcode.message", "relevantDate.end", "expirationDate", "image.thumbnail"] {
            let json = "{\"fields\": [{\"name\": \"\(name)\"}]}"
            do {
                _ = try TemplateFolder.load(["pass.json": Self.passJSON, "template.json": json])
                Issue.record("expected an error for \(name)")
            } catch let error as TemplateError {
                guard case .invalidTemplateJSON(_, let path, let message) = error else {
                    Issue.record("unexpected \(error)")
                    continue
                }
                #expect(path == "fields[0].name")
                #expect(message.contains("reserved record key"))
            }
        }
    }
}
