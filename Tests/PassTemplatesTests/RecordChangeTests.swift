import Testing
@testable import PassTemplates

/// Amounts added to number fields, `+10` refused as a value, and template.json `minimum` / `maximum`.
@Suite("RecordChange: additions and bounds")
struct RecordChangeTests {
    static let templateJSON = """
        {"fields": [
          {"name": "points", "type": "integer", "default": "0", "minimum": 0, "maximum": 100000},
          {"name": "balance", "type": "decimal", "default": "12.50", "minimum": "-5.5"},
          {"name": "visits", "type": "integer"},
          {"name": "tier", "type": "enum", "values": ["Silver", "Gold"], "default": "Silver"}
        ]}
        """

    static func template() throws -> (Template, String) {
        try TemplateFolder.load(["pass.json": #"{"serialNumber": "1"}"#, "template.json": templateJSON])
    }

    @Test(
        "an amount is added to the stored value, else the default, else 0; decimals keep the longer fraction",
        arguments: [
            (["points": "618"], "points", "10", "628"), (["points": "618"], "points", "-618", "0"),
            ([:], "points", "+7", "7"), ([:], "balance", "1.5", "14.00"), (["balance": "0.1"], "balance", "0.2", "0.3"),
            (["balance": "1.25"], "balance", "-3", "-1.75"), ([:], "visits", "3", "3"),
            (["visits": "-2"], "visits", "2", "0"),
        ] as [([String: String], String, String, String)])
    func additions(record: [String: String], field: String, amount: String, result: String) throws {
        let (template, _) = try Self.template()
        let changed = try template.applying(RecordChange(amounts: [field: amount]), to: record)
        #expect(changed[field] == result)
        #expect(try template.resolve(changed).values[field] == result)
    }

    @Test("values and amounts together: values replace, amounts add, other keys stay")
    func mixed() throws {
        let (template, _) = try Self.template()
        let changed = try template.applying(
            RecordChange(values: ["tier": "Gold"], amounts: ["points": "5"]), to: ["points": "1", "visits": "9"])
        #expect(changed == ["tier": "Gold", "points": "6", "visits": "9"])
    }

    @Test("an amount for a field that holds no number, for no field, or that is no number, is refused")
    func badAmounts() throws {
        let (template, dir) = try Self.template()
        let file = dir + "/template.json"
        #expect(throws: TemplateError.notANumberField(field: "tier", kind: .enum, file: file)) {
            try template.applying(RecordChange(amounts: ["tier": "1"]), to: [:])
        }
        #expect(throws: TemplateError.notANumberField(field: "pints", kind: nil, file: file)) {
            try template.applying(RecordChange(amounts: ["pints": "1"]), to: [:])
        }
        let notNumber = #expect(throws: TemplateError.self) {
            try template.applying(RecordChange(amounts: ["points": "1.5"]), to: [:])
        }
        #expect(notNumber?.description.contains("expected an amount to add such as 10 or -5") == true)
        let both = #expect(throws: TemplateError.self) {
            try template.applying(RecordChange(values: ["points": "3"], amounts: ["points": "1"]), to: [:])
        }
        #expect(both?.description.contains("not both") == true)
        let overflow = #expect(throws: TemplateError.self) {
            try template.applying(RecordChange(amounts: ["visits": "1"]), to: ["visits": "9223372036854775807"])
        }
        guard case .outOfRange(let field, let value, _, _, _)? = overflow else {
            Issue.record("\(String(describing: overflow))")
            return
        }
        #expect(field == "visits" && value == "9223372036854775808")
    }

    @Test("\"+10\" as a number field's value is refused, saying it would set and not add", arguments: ["+10", " +10"])
    func signedValue(value: String) throws {
        let (template, dir) = try Self.template()
        let error = #expect(throws: TemplateError.self) { try template.resolve(["points": value]) }
        #expect(error == .signedValue(field: "points", value: value, file: dir + "/template.json"))
        #expect(error?.description.contains("would set points to 10, not add 10 to it") == true)
    }

    @Test(
        "values outside minimum and maximum are refused, whether set or added",
        arguments: [
            (["points": "-1"], "-1"), (["points": "100001"], "100001"), (["balance": "-5.51"], "-5.51"),
        ] as [([String: String], String)])
    func outOfRange(record: [String: String], value: String) throws {
        let (template, _) = try Self.template()
        let error = #expect(throws: TemplateError.self) { try template.resolve(record) }
        guard case .outOfRange(_, let shown, _, _, _)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(shown == value)
        #expect(error?.description.contains("outside its bounds") == true)
        #expect(try template.resolve(["points": "100000", "balance": "-5.50"]).values["points"] == "100000")
    }

    @Test("an addition below the minimum fails when the result is resolved")
    func additionBelowMinimum() throws {
        let (template, dir) = try Self.template()
        let changed = try template.applying(RecordChange(amounts: ["points": "-11"]), to: ["points": "10"])
        #expect(
            throws: TemplateError.outOfRange(
                field: "points", value: "-1", minimum: "0", maximum: "100000", file: dir + "/template.json")
        ) {
            try template.resolve(changed)
        }
    }

    @Test(
        "template.json bounds are checked when the template loads",
        arguments: [
            (#"{"name": "p", "type": "integer", "minimum": 5, "maximum": 1}"#, "is above the maximum 1"),
            (#"{"name": "p", "type": "integer", "minimum": 1.5}"#, "is not a valid integer value"),
            (#"{"name": "p", "type": "integer", "minimum": true}"#, "must be a number"),
            (#"{"name": "p", "type": "integer", "minimum": 5, "default": "2"}"#, "outside the field's bounds"),
        ])
    func badBounds(field: String, message: String) throws {
        let error = #expect(throws: TemplateError.self) {
            try TemplateFolder.load([
                "pass.json": #"{"serialNumber": "1"}"#, "template.json": #"{"fields": [\#(field)]}"#,
            ])
        }
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    }

    @Test("bounds on a field that holds no number are ignored with a warning")
    func boundsOnString() throws {
        let (template, _) = try TemplateFolder.load([
            "pass.json": #"{"serialNumber": "1"}"#,
            "template.json": #"{"fields": [{"name": "n", "type": "string", "maximum": 3}]}"#,
        ])
        #expect(template.fields[0].maximum == nil)
        #expect(template.warnings.contains { $0.contains("fields[0].maximum: ignored") })
    }
}
