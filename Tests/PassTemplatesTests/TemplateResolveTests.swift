import Testing
@testable import PassTemplates

@Suite("Template.resolve: typing records")
struct TemplateResolveTests {
    static let templateJSON = """
        {"fields": [
          {"name": "name", "type": "string", "required": true},
          {"name": "nickname", "type": "string"},
          {"name": "points", "type": "integer", "default": "0"},
          {"name": "balance", "type": "decimal"},
          {"name": "expires", "type": "date"},
          {"name": "tier", "type": "enum", "values": ["Silver", "Gold", "Platinum"], "default": "Silver"}
        ]}
        """

    static func template() throws -> (Template, String) {
        try TemplateFolder.load(["pass.json": #"{"serialNumber": "1"}"#, "template.json": templateJSON])
    }

    @Test("defaults apply to missing and empty values; optional fields without default stay absent")
    func defaults() throws {
        let (template, _) = try Self.template()
        let record = try template.resolve(["name": "Ada", "points": ""])
        #expect(record.values == ["name": "Ada", "points": "0", "tier": "Silver"])
        #expect(record.warnings.isEmpty)
    }

    @Test(
        "a NUL or other control character in any value fails the record, naming the key; tabs and line breaks are data")
    func controlCharacters() throws {
        let (template, _) = try Self.template()
        // The offset counts characters (Unicode scalars), not bytes.
        for (value, code, offset) in [
            ("Ada\u{0}", UInt32(0), 4), ("A\u{1B}da", 0x1B, 2), ("x\u{7F}", 0x7F, 2), ("éü\u{2}", 0x02, 3),
        ] {
            let error = #expect(throws: TemplateError.self) { try template.resolve(["name": value]) }
            guard case .controlCharacter(let key, let at, let found)? = error else {
                Issue.record("unexpected \(String(describing: error))")
                continue
            }
            #expect(key == "name" && found == code && at == offset)
        }
        #expect(try template.resolve(["name": "Zoë \u{85}"]).values["name"] == "Zoë \u{85}")
        #expect(try template.resolve(["name": "Ada\tLove\nlace\r\n"]).values["name"] == "Ada\tLove\nlace\r\n")
    }

    @Test("a missing required value names the field and the template file")
    func missingRequired() throws {
        let (template, dir) = try Self.template()
        for record in [[:], ["name": ""]] as [[String: String]] {
            let error = #expect(throws: TemplateError.self) { try template.resolve(record) }
            #expect(error == .missingValue(field: "name", file: dir + "/template.json"))
            #expect(error?.description.contains("field \"name\" is required") == true)
            #expect(error?.description.contains("name=… in the record") == true)
        }
    }

    @Test(
        "integers are normalised",
        arguments: [
            ("42", "42"), ("0042", "42"), ("-7", "-7"), (" 12 ", "12"),
            ("9223372036854775807", "9223372036854775807"),
        ])
    func integers(input: String, output: String) throws {
        let (template, _) = try Self.template()
        #expect(try template.resolve(["name": "a", "points": input]).values["points"] == output)
    }

    @Test(
        "bad integers name the field, the value and the expected form",
        arguments: ["12a", "1.5", "1e3", "-", "9223372036854775808", "1 000"])
    func badIntegers(input: String) throws {
        let (template, dir) = try Self.template()
        let error = #expect(throws: TemplateError.self) { try template.resolve(["name": "a", "points": input]) }
        #expect(
            error
                == .invalidValue(
                    field: "points", value: input, expected: "a whole number such as 1200",
                    file: dir + "/template.json"))
        #expect(
            error?.description.contains("field \"points\" has the value \"\(input)\", expected a whole number") == true)
    }

    @Test(
        "decimals are normalised",
        arguments: [
            ("12.50", "12.50"), ("012.5", "12.5"), ("-3", "-3"), (".5", "0.5"),
            ("-0.25", "-0.25"), ("-0.0", "0.0"), ("7.", "7"), ("0", "0"), ("0.00", "0.00"), ("00", "0"),
            (" 3.25\t", "3.25"), ("1234567890.0123", "1234567890.0123"),
            (String(repeating: "9", count: 300), String(repeating: "9", count: 300)),
        ])
    func decimals(input: String, output: String) throws {
        let (template, _) = try Self.template()
        #expect(try template.resolve(["name": "a", "balance": input]).values["balance"] == output)
    }

    @Test(
        "bad decimals are refused",
        arguments: ["1,50", "1.2.3", "abc", ".", "1e5", "$5", "1 5", "-", String(repeating: "9", count: 400)])
    func badDecimals(input: String) throws {
        let (template, _) = try Self.template()
        let error = #expect(throws: TemplateError.self) { try template.resolve(["name": "a", "balance": input]) }
        #expect(error?.description.contains("expected a decimal number") == true)
    }

    @Test(
        "dates are normalised to YYYY-MM-DDTHH:MM:SS with Z or ±HH:MM",
        arguments: [
            ("2027-06-12", "2027-06-12T00:00:00Z"),
            ("2027-06-12T19:30+02:00", "2027-06-12T19:30:00+02:00"),
            ("2027-06-12T19:30:05Z", "2027-06-12T19:30:05Z"),
            ("2027-06-12T19:30:05+00:00", "2027-06-12T19:30:05Z"),
            ("2027-06-12T08:00-0530", "2027-06-12T08:00:00-05:30"),
            ("2028-02-29T00:00Z", "2028-02-29T00:00:00Z"),
            (" 2027-01-01 ", "2027-01-01T00:00:00Z"),
        ])
    func dates(input: String, output: String) throws {
        let (template, _) = try Self.template()
        #expect(try template.resolve(["name": "a", "expires": input]).values["expires"] == output)
    }

    @Test(
        "bad dates are refused with the expected form",
        arguments: [
            "2027-02-30", "2027-13-01", "2100-02-29", "2027-06-12T24:00Z", "2027-06-12T19:60Z", "2027-06-12T19:30",
            "2027-06-12 19:30Z", "12/06/2027", "2027-6-12", "2027-06-12T19:30:00.5Z", "2027-06-12T19:30+15:00", "",
        ])
    func badDates(input: String) throws {
        let (template, _) = try Self.template()
        if input.isEmpty {  // empty is "no value", and the field is optional
            #expect(try template.resolve(["name": "a", "expires": input]).values["expires"] == nil)
            return
        }
        let error = #expect(throws: TemplateError.self) { try template.resolve(["name": "a", "expires": input]) }
        #expect(error?.description.contains("expected an ISO 8601 date such as 2027-06-12T19:30:00+02:00") == true)
    }

    @Test("enum values are exact; a wrong one lists the allowed values and suggests the near miss")
    func enums() throws {
        let (template, _) = try Self.template()
        #expect(try template.resolve(["name": "a", "tier": "Gold"]).values["tier"] == "Gold")
        let error = #expect(throws: TemplateError.self) { try template.resolve(["name": "a", "tier": "gold"]) }
        let text = error?.description ?? ""
        #expect(text.contains("field \"tier\" has the value \"gold\""))
        #expect(text.contains("one of \"Silver\", \"Gold\", \"Platinum\""))
        #expect(text.contains("did you mean \"Gold\"?"))
        let other = #expect(throws: TemplateError.self) { try template.resolve(["name": "a", "tier": "Bronze"]) }
        #expect(other?.description.contains("did you mean") == false)
    }

    @Test("strings are kept exactly, including JSON syntax")
    func strings() throws {
        let (template, _) = try Self.template()
        let value = #" ","voided":true,"x":" "#
        #expect(try template.resolve(["name": value]).values["name"] == value)
    }

    @Test("unknown keys are ignored with a warning and a hint; serialNumber passes through")
    func unknownKeys() throws {
        let (template, dir) = try Self.template()
        let record = try template.resolve(["name": "a", "pionts": "5", "serialNumber": "S-1", "zzz": "1"])
        #expect(record.values["serialNumber"] == "S-1")
        #expect(record.values["pionts"] == nil)
        #expect(record.warnings.count == 2)
        #expect(record.warnings[0].hasPrefix(dir + "/template.json: \"pionts\" is not a field of this template"))
        #expect(record.warnings[0].contains("did you mean \"points\"?"))
        #expect(record.warnings[1].contains("\"zzz\" is not a field"))
        #expect(record.warnings[1].contains("fields: name, nickname, points, balance, expires, tier"))
    }
}
