import Testing

@testable import PassModel

/// One validation rule: a change that must produce a finding (code, path, severity) and a nearby change that
/// must not (and leaves the pass free of errors).
struct ValidatorRule: Sendable, CustomTestStringConvertible {
    enum Base: Sendable { case storeCard, eventTicket, boardingPass, posterGeneric }
    typealias Edit = (path: String, value: JSONValue?)

    var name: String
    var base: Base = .storeCard
    var failing: [Edit]
    var passing: [Edit]
    var code: ProblemCode
    var path: String
    var severity: Problem.Severity = .error
    /// Words the failing message must contain (actionable text).
    var mentions: [String] = []
    /// The pass's file names for the rules that need them (`PassValidator.validate(_:fileNames:)`); nil runs
    /// the pass.json rules alone.
    var failingFiles: [String]? = nil
    var passingFiles: [String]? = nil

    var testDescription: String { name }

    func json(_ edits: [Edit]) -> JSONValue {
        var j: JSONValue
        switch base {
        case .storeCard: j = Sample.storeCard
        case .eventTicket: j = Sample.eventTicket
        case .boardingPass: j = Sample.boardingPass
        case .posterGeneric: j = Sample.posterGeneric
        }
        for e in edits { j.set(e.path, e.value) }
        return j
    }

    /// What the validator finds in the pass made by `edits`, with the file rules when `files` is given.
    func problems(_ edits: [Edit], files: [String]?) -> [Problem] {
        let j = json(edits)
        guard let files else { return PassValidator.validate(j) }
        return PassValidator.validate(j, fileNames: files)
    }
}

extension ValidatorRule {
    static let missing = PassProblemCode.missingKey
    static let invalid = PassProblemCode.invalidValue

    static func rule(
        _ name: String, _ base: Base = .storeCard, fail: [Edit], pass: [Edit], _ code: ProblemCode, at path: String,
        _ severity: Problem.Severity = .error, mentions: [String] = []
    ) -> ValidatorRule {
        ValidatorRule(
            name: name, base: base, failing: fail, passing: pass, code: code, path: path, severity: severity,
            mentions: mentions)
    }

    /// §8 item 11 and the top-level types.
    static let topLevel: [ValidatorRule] = [
        rule(
            "formatVersion missing", fail: [("formatVersion", nil)], pass: [], missing, at: "formatVersion",
            mentions: ["\"formatVersion\": 1"]),
        rule(
            "formatVersion 2", fail: [("formatVersion", 2)], pass: [("formatVersion", 1)], invalid, at: "formatVersion"),
        rule(
            "formatVersion as a string", fail: [("formatVersion", "1")], pass: [], invalid, at: "formatVersion",
            mentions: ["without quotes"]),
        rule("serialNumber missing", fail: [("serialNumber", nil)], pass: [], missing, at: "serialNumber"),
        rule(
            "passTypeIdentifier missing", fail: [("passTypeIdentifier", nil)], pass: [], missing,
            at: "passTypeIdentifier"),
        rule("teamIdentifier missing", fail: [("teamIdentifier", nil)], pass: [], missing, at: "teamIdentifier"),
        rule("organizationName missing", fail: [("organizationName", nil)], pass: [], missing, at: "organizationName"),
        rule("description missing", fail: [("description", nil)], pass: [], missing, at: "description"),
        rule(
            "serialNumber is a number", fail: [("serialNumber", 42)], pass: [("serialNumber", "42")], invalid,
            at: "serialNumber",
            mentions: ["the number 42", "string"]),
        rule(
            "serialNumber empty", fail: [("serialNumber", "")], pass: [("serialNumber", "x1")], invalid,
            at: "serialNumber"),
        rule(
            "passTypeIdentifier without pass. prefix", fail: [("passTypeIdentifier", "com.example.x")], pass: [],
            invalid, at: "passTypeIdentifier", .warning),
        rule(
            "no style key", fail: [("storeCard", nil)], pass: [], PassProblemCode.noStyle, at: "",
            mentions: ["boardingPass, coupon, eventTicket, generic, storeCard"]),
        rule(
            "two style keys", fail: [("coupon", ["primaryFields": []])], pass: [], PassProblemCode.noStyle,
            at: "storeCard",
            mentions: ["exactly one"]),
        rule("style is not an object", fail: [("storeCard", [1])], pass: [], invalid, at: "storeCard"),
        rule(
            "boolean as a string", fail: [("voided", "true")], pass: [("voided", true)], invalid, at: "voided",
            mentions: ["true or false without quotes"]),
        rule(
            "colour #12345 is not a colour", fail: [("backgroundColor", "#12345")],
            pass: [("backgroundColor", "rgb(0, 0, 0)")],
            invalid, at: "backgroundColor", mentions: ["\"#12345\" is not a colour", "rgb(r, g, b)", "0–255"]),
        rule(
            "colour #rrggbb must be written rgb()", fail: [("foregroundColor", "#12345a")],
            pass: [("foregroundColor", "rgb(18,52,90)")],
            invalid, at: "foregroundColor", mentions: ["rgb(18, 52, 90)"]),
        rule(
            "colour component above 255", fail: [("labelColor", "rgb(300, 0, 0)")],
            pass: [("labelColor", "rgb(255, 0, 0)")],
            invalid, at: "labelColor"),
        rule(
            "footerBackgroundColor is a colour too", fail: [("footerBackgroundColor", "black")],
            pass: [("footerBackgroundColor", "rgb(0, 0, 0)")], invalid, at: "footerBackgroundColor"),
        rule(
            "event-guide URL without scheme", fail: [("bagPolicyURL", "example.com/bags")],
            pass: [("bagPolicyURL", "https://example.com/bags")],
            invalid, at: "bagPolicyURL", .warning),
        rule(
            "unknown key with a near miss", fail: [("backgroundColour", "rgb(1, 2, 3)")], pass: [],
            PassProblemCode.unknownKey,
            at: "backgroundColour", .warning, mentions: ["did you mean \"backgroundColor\"?"]),
        rule(
            "unknown key inside a field", fail: [("storeCard.primaryFields[0].colour", "red")], pass: [],
            PassProblemCode.unknownKey, at: "storeCard.primaryFields[0].colour", .warning),
    ]

    /// §8 items 12 and 13 and the field options of §2.
    /// Three secondary and two auxiliary fields on a generic pass.
    static let squareRow: [Edit] =
        (0...2).map { ("generic.secondaryFields[\($0)]", ["key": .string("s\($0)"), "value": "x"]) }
        + (0...1).map { ("generic.auxiliaryFields[\($0)]", ["key": .string("a\($0)"), "value": "x"]) }

    static let genericFields: [ValidatorRule] = [
        rule(
            "generic with a square barcode shows four secondary and auxiliary fields combined",
            fail: [("storeCard", nil)] + squareRow,
            pass: [("storeCard", nil), ("barcodes[0].format", "PKBarcodeFormatPDF417")] + squareRow,
            PassProblemCode.tooManyFields, at: "generic.auxiliaryFields", .warning, mentions: ["square"])
    ]

    static let fields: [ValidatorRule] = [
        rule(
            "boardingPass without transitType", .boardingPass, fail: [("boardingPass.transitType", nil)], pass: [],
            invalid, at: "boardingPass.transitType", mentions: ["PKTransitTypeAir"]),
        rule(
            "transitType not a known value", .boardingPass,
            fail: [("boardingPass.transitType", "PKTransitTypeAirplane")],
            pass: [("boardingPass.transitType", "PKTransitTypeTrain")], invalid, at: "boardingPass.transitType",
            mentions: ["did you mean \"PKTransitTypeAir\"?"]),
        rule(
            "transitType outside boardingPass", fail: [("storeCard.transitType", "PKTransitTypeAir")], pass: [],
            invalid, at: "storeCard.transitType", .warning, mentions: ["ignores it"]),
        rule(
            "field without key", fail: [("storeCard.primaryFields[0].key", nil)], pass: [], missing,
            at: "storeCard.primaryFields[0].key"),
        rule(
            "field without value", fail: [("storeCard.primaryFields[0].value", nil)], pass: [], missing,
            at: "storeCard.primaryFields[0].value", mentions: ["\"balance\""]),
        rule(
            "field value is a boolean", fail: [("storeCard.secondaryFields[0].value", true)],
            pass: [("storeCard.secondaryFields[0].value", "yes")],
            invalid, at: "storeCard.secondaryFields[0].value"),
        rule(
            "field group not an array", fail: [("storeCard.backFields", ["key": "a", "value": "b"])], pass: [],
            invalid, at: "storeCard.backFields"),
        rule(
            "field not a dictionary", fail: [("storeCard.backFields[0]", "terms")], pass: [], invalid,
            at: "storeCard.backFields[0]"),
        rule(
            "duplicate key in another group", fail: [("storeCard.backFields[0].key", "balance")],
            pass: [("storeCard.backFields[0].key", "balance2")],
            PassProblemCode.duplicateFieldKey, at: "storeCard.backFields[0].key",
            mentions: ["storeCard.primaryFields[0]"]),
        rule(
            "duplicate key in additionalInfoFields",
            fail: [("storeCard.additionalInfoFields[0]", ["key": "member", "value": "x"])],
            pass: [("storeCard.additionalInfoFields[0]", ["key": "info", "value": "x"])],
            PassProblemCode.duplicateFieldKey, at: "storeCard.additionalInfoFields[0].key"),
        rule(
            "dateStyle not a known value",
            fail: [
                ("storeCard.backFields[0].dateStyle", "short"),
                ("storeCard.backFields[0].timeStyle", "PKDateStyleNone"),
                ("storeCard.backFields[0].value", "2026-07-22T10:00Z"),
            ], pass: [], invalid,
            at: "storeCard.backFields[0].dateStyle", mentions: ["did you mean \"PKDateStyleShort\"?"]),
        rule(
            "dateStyle without timeStyle",
            fail: [
                ("storeCard.backFields[0].value", "2026-07-22T10:00Z"),
                ("storeCard.backFields[0].dateStyle", "PKDateStyleShort"),
            ],
            pass: [
                ("storeCard.backFields[0].value", "2026-07-22T10:00Z"),
                ("storeCard.backFields[0].dateStyle", "PKDateStyleShort"),
                ("storeCard.backFields[0].timeStyle", "PKDateStyleNone"),
            ],
            invalid, at: "storeCard.backFields[0].dateStyle", .warning, mentions: ["set both or neither"]),
        rule(
            "date style on a value that is not a date",
            fail: [
                ("storeCard.backFields[0].dateStyle", "PKDateStyleShort"),
                ("storeCard.backFields[0].timeStyle", "PKDateStyleShort"),
            ],
            pass: [
                ("storeCard.backFields[0].dateStyle", "PKDateStyleShort"),
                ("storeCard.backFields[0].timeStyle", "PKDateStyleShort"),
                ("storeCard.backFields[0].value", "2026-07-22T10:00:00+02:00"),
            ],
            invalid, at: "storeCard.backFields[0].value", mentions: ["ISO 8601"]),
        rule(
            "date without time zone",
            fail: [
                ("storeCard.backFields[0].value", "2026-07-22T10:00"),
                ("storeCard.backFields[0].dateStyle", "PKDateStyleShort"),
                ("storeCard.backFields[0].timeStyle", "PKDateStyleShort"),
            ],
            pass: [], invalid, at: "storeCard.backFields[0].value", mentions: ["no time zone"]),
        rule(
            "currencyCode on a string value", fail: [("storeCard.secondaryFields[0].currencyCode", "USD")],
            pass: [("storeCard.secondaryFields[0].currencyCode", "USD"), ("storeCard.secondaryFields[0].value", 12)],
            invalid, at: "storeCard.secondaryFields[0].currencyCode", .warning, mentions: ["numeric"]),
        rule(
            "numberStyle on a numeric string",
            fail: [
                ("storeCard.secondaryFields[0].numberStyle", "PKNumberStylePercent"),
                ("storeCard.secondaryFields[0].value", "0.5"),
            ],
            pass: [
                ("storeCard.secondaryFields[0].numberStyle", "PKNumberStylePercent"),
                ("storeCard.secondaryFields[0].value", 0.5),
            ],
            invalid, at: "storeCard.secondaryFields[0].numberStyle", .warning, mentions: ["as a number without quotes"]),
        rule(
            "numberStyle not a known value", fail: [("storeCard.primaryFields[0].numberStyle", "PKNumberStyleMoney")],
            pass: [],
            invalid, at: "storeCard.primaryFields[0].numberStyle"),
        rule(
            "currencyCode not ISO 4217", fail: [("storeCard.primaryFields[0].currencyCode", "usd")],
            pass: [("storeCard.primaryFields[0].currencyCode", "EUR")],
            invalid, at: "storeCard.primaryFields[0].currencyCode"),
        rule(
            "textAlignment on a primary field",
            fail: [("storeCard.primaryFields[0].textAlignment", "PKTextAlignmentRight")],
            pass: [("storeCard.secondaryFields[0].textAlignment", "PKTextAlignmentRight")], invalid,
            at: "storeCard.primaryFields[0].textAlignment", .warning, mentions: ["ignores it"]),
        rule(
            "textAlignment on a back field", fail: [("storeCard.backFields[0].textAlignment", "PKTextAlignmentLeft")],
            pass: [],
            invalid, at: "storeCard.backFields[0].textAlignment", .warning),
        rule(
            "textAlignment not a known value", fail: [("storeCard.secondaryFields[0].textAlignment", "right")],
            pass: [],
            invalid, at: "storeCard.secondaryFields[0].textAlignment"),
        rule(
            "row outside eventTicket auxiliaryFields", fail: [("storeCard.secondaryFields[0].row", 1)], pass: [],
            invalid,
            at: "storeCard.secondaryFields[0].row", .warning),
        rule(
            "row other than 0 or 1", .eventTicket, fail: [("eventTicket.auxiliaryFields[0].row", 2)],
            pass: [("eventTicket.auxiliaryFields[0].row", 1)], invalid, at: "eventTicket.auxiliaryFields[0].row"),
        rule(
            "dataDetectorTypes outside backFields",
            fail: [("storeCard.secondaryFields[0].dataDetectorTypes", ["PKDataDetectorTypeLink"])],
            pass: [("storeCard.backFields[0].dataDetectorTypes", ["PKDataDetectorTypeLink"])], invalid,
            at: "storeCard.secondaryFields[0].dataDetectorTypes", .warning),
        rule(
            "dataDetectorTypes entry unknown",
            fail: [("storeCard.backFields[0].dataDetectorTypes", ["PKDataDetectorTypeEmail"])],
            pass: [("storeCard.backFields[0].dataDetectorTypes", [])], invalid,
            at: "storeCard.backFields[0].dataDetectorTypes[0]"),
        rule(
            "attributedValue with markup other than links",
            fail: [("storeCard.backFields[0].attributedValue", "<b>Bold</b>")],
            pass: [("storeCard.backFields[0].attributedValue", "<a href=\"https://example.com\">Terms</a>")], invalid,
            at: "storeCard.backFields[0].attributedValue", .warning),
        rule(
            "too many primary fields", fail: [("storeCard.primaryFields[1]", ["key": "p2", "value": "x"])], pass: [],
            PassProblemCode.tooManyFields, at: "storeCard.primaryFields", .warning, mentions: ["at most 1"]),
        rule(
            "too many secondary and auxiliary fields on a store card",
            fail: (1...4).map { ("storeCard.auxiliaryFields[\($0 - 1)]", ["key": .string("a\($0)"), "value": "x"]) },
            pass: (1...3).map { ("storeCard.auxiliaryFields[\($0 - 1)]", ["key": .string("a\($0)"), "value": "x"]) },
            PassProblemCode.tooManyFields, at: "storeCard.auxiliaryFields", .warning, mentions: ["combined"]),
        rule(
            "too many header fields",
            fail: (0...3).map { ("storeCard.headerFields[\($0)]", ["key": .string("h\($0)"), "value": "x"]) },
            pass: (0...2).map { ("storeCard.headerFields[\($0)]", ["key": .string("h\($0)"), "value": "x"]) },
            PassProblemCode.tooManyFields, at: "storeCard.headerFields", .warning),
        rule(
            "second auxiliary row of an event ticket holds four", .eventTicket,
            fail: (1...5).map {
                ("eventTicket.auxiliaryFields[\($0)]", ["key": .string("r\($0)"), "value": "x", "row": 1])
            },
            pass: (1...4).map {
                ("eventTicket.auxiliaryFields[\($0)]", ["key": .string("r\($0)"), "value": "x", "row": 1])
            },
            PassProblemCode.tooManyFields, at: "eventTicket.auxiliaryFields", .warning, mentions: ["second row"]),
        rule(
            "boarding pass shows two primary fields", .boardingPass,
            fail: [("boardingPass.primaryFields[2]", ["key": "via", "value": "ORD"])], pass: [],
            PassProblemCode.tooManyFields, at: "boardingPass.primaryFields", .warning),
    ]
}
