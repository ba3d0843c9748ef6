import Testing

@testable import PassModel

extension ValidatorRule {
    static func field(_ key: String, _ value: JSONValue = "x") -> JSONValue { ["key": .string(key), "value": value] }

    /// ios27.md: poster generic passes and their fallback.
    static let posterGeneric: [ValidatorRule] = [
        rule(
            "posterGeneric without a legacy fallback", .posterGeneric, fail: [("generic", nil)], pass: [],
            PassProblemCode.posterNoFallback, at: "posterGeneric", .warning, mentions: ["iOS 26", "generic"]),
        rule(
            "posterGeneric beside two legacy styles", .posterGeneric,
            fail: [("storeCard", ["primaryFields": [field("member")]])], pass: [],
            PassProblemCode.noStyle, at: "storeCard", mentions: ["besides posterGeneric", "exactly one"]),
        rule(
            "boardingPass as the fallback of posterGeneric", .posterGeneric,
            fail: [
                ("generic", nil),
                ("boardingPass", ["transitType": "PKTransitTypeGeneric", "primaryFields": [field("member")]]),
            ],
            pass: [("generic", nil), ("storeCard", ["primaryFields": [field("member")]])],
            PassProblemCode.posterFallbackStyle, at: "boardingPass", .warning, mentions: ["generic or storeCard"]),
        rule(
            "secondary fields in posterGeneric are not shown", .posterGeneric,
            fail: [("posterGeneric.secondaryFields[0]", field("visits"))],
            pass: [("posterGeneric.headerFields[1]", field("visits"))],
            PassProblemCode.groupNotShown, at: "posterGeneric.secondaryFields", .warning,
            mentions: ["footerFields", "primaryFields (up to four)"]),
        rule(
            "auxiliary fields in posterGeneric are not shown", .posterGeneric,
            fail: [("posterGeneric.auxiliaryFields[0]", field("visits"))],
            pass: [("generic.auxiliaryFields[0]", field("visits"))],
            PassProblemCode.groupNotShown, at: "posterGeneric.auxiliaryFields", .warning),
        rule(
            "footerFields in a legacy style are not shown", fail: [("storeCard.footerFields[0]", field("visits"))],
            pass: [("storeCard.auxiliaryFields[0]", field("visits"))],
            PassProblemCode.groupNotShown, at: "storeCard.footerFields", .warning, mentions: ["posterGeneric"]),
        rule(
            "a second footer field: the article allows two, the talk shows one", .posterGeneric,
            fail: [("posterGeneric.footerFields[1]", field("visits", 3))], pass: [],
            PassProblemCode.tooManyFields, at: "posterGeneric.footerFields", .warning,
            mentions: ["allows two", "only the first"]),
        rule(
            "posterGeneric shows up to four primary fields", .posterGeneric,
            fail: (1...4).map { ("posterGeneric.primaryFields[\($0)]", field("p\($0)")) },
            pass: (1...3).map { ("posterGeneric.primaryFields[\($0)]", field("p\($0)")) },
            PassProblemCode.tooManyFields, at: "posterGeneric.primaryFields", .warning, mentions: ["at most 4"]),
        rule(
            "the same key twice inside posterGeneric", .posterGeneric,
            fail: [("posterGeneric.backFields[1]", field("tier"))],
            pass: [("posterGeneric.backFields[1]", field("t2"))],
            PassProblemCode.duplicateFieldKey, at: "posterGeneric.backFields[1].key",
            mentions: ["posterGeneric.headerFields[0]", "within posterGeneric"]),
        rule(
            "the same key twice inside the fallback", .posterGeneric,
            fail: [("generic.backFields[1]", field("points"))], pass: [],
            PassProblemCode.duplicateFieldKey, at: "generic.backFields[1].key",
            mentions: ["generic.secondaryFields[0]"]),
        rule(
            "useAutomaticColors on posterGeneric is unconfirmed", .posterGeneric, fail: [("useAutomaticColors", true)],
            pass: [("labelColor", "rgb(255, 255, 255)")],
            PassProblemCode.unconfirmedKey, at: "useAutomaticColors", .warning,
            mentions: ["unconfirmed", "posterGeneric"]),
        rule(
            "suppressHeaderDarkening on posterGeneric is unconfirmed", .posterGeneric,
            fail: [("suppressHeaderDarkening", true)], pass: [],
            PassProblemCode.unconfirmedKey, at: "suppressHeaderDarkening", .warning, mentions: ["unconfirmed"]),
        rule(
            "footerBackgroundColor on posterGeneric is unconfirmed", .posterGeneric,
            fail: [("footerBackgroundColor", "rgb(0, 0, 0)")], pass: [],
            PassProblemCode.unconfirmedKey, at: "footerBackgroundColor", .warning, mentions: ["foregroundColor"]),
        rule(
            "posterGeneric listed in preferredStyleSchemes", .posterGeneric,
            fail: [("preferredStyleSchemes", ["posterGeneric", "generic"])], pass: [], invalid,
            at: "preferredStyleSchemes[0]", .warning, mentions: ["whenever the pass has one"]),
        rule(
            "logoSymbolName is Apple's builder's, not the reference's", fail: [("logoSymbolName", "star.fill")],
            pass: [], PassProblemCode.unconfirmedKey, at: "logoSymbolName", .warning, mentions: ["logo.png"]),
        rule(
            "logoSymbolName is a string", fail: [("logoSymbolName", 7)], pass: [], invalid, at: "logoSymbolName"),
    ]

    /// ios27.md: featured actions.
    static let featuredActions: [ValidatorRule] = [
        rule(
            "featuredActions is not an array", fail: [("featuredActions", Sample.action("shop"))],
            pass: [("featuredActions", [Sample.action("shop")])], invalid, at: "featuredActions",
            mentions: ["an array"]),
        rule(
            "a featured action that is not an object", fail: [("featuredActions", ["shop"])], pass: [], invalid,
            at: "featuredActions[0]"),
        rule(
            "more than two featured actions",
            fail: [("featuredActions", [Sample.action("a"), Sample.action("b"), Sample.action("c")])],
            pass: [("featuredActions", [Sample.action("a"), Sample.action("b")])],
            PassProblemCode.tooManyActions, at: "featuredActions", .warning, mentions: ["at most two"]),
        rule(
            "featured action identifiers repeat",
            fail: [("featuredActions", [Sample.action("a"), Sample.action("a")])],
            pass: [("featuredActions", [Sample.action("a"), Sample.action("b")])],
            PassProblemCode.duplicateActionIdentifier, at: "featuredActions[1].identifier", .warning,
            mentions: ["featuredActions[0]"]),
        rule(
            "featured action identifier is not a string",
            fail: [("featuredActions", [Sample.action("a")]), ("featuredActions[0].identifier", 1)],
            pass: [], invalid, at: "featuredActions[0].identifier"),
        rule(
            "featured action without identifier",
            fail: [("featuredActions", [Sample.action("a")]), ("featuredActions[0].identifier", nil)], pass: [],
            missing, at: "featuredActions[0].identifier", .warning),
        rule(
            "featured action without type",
            fail: [("featuredActions", [Sample.action("a")]), ("featuredActions[0].type", nil)], pass: [],
            missing, at: "featuredActions[0].type", .warning, mentions: ["viewOffersRewards"]),
        rule(
            "featured action type not in Apple's list",
            fail: [("featuredActions", [Sample.action("a", "viewSchedules")])],
            pass: [("featuredActions", [Sample.action("a", "viewSchedule")])], invalid, at: "featuredActions[0].type",
            .warning, mentions: ["did you mean \"viewSchedule\"?"]),
        rule(
            "featured action without url",
            fail: [("featuredActions", [Sample.action("a")]), ("featuredActions[0].url", nil)], pass: [],
            missing, at: "featuredActions[0].url", .warning),
        rule(
            "featured action url not absolute",
            fail: [("featuredActions", [Sample.action("a", "shop", "example.com")])],
            pass: [], invalid, at: "featuredActions[0].url", .warning, mentions: ["absolute"]),
        rule(
            "a call action with a web URL (unconfirmed)",
            fail: [("featuredActions", [Sample.action("a", "call", "https://example.com/call")])],
            pass: [("featuredActions", [Sample.action("a", "call", "tel:+15555550123")])], invalid,
            at: "featuredActions[0].url", .warning, mentions: ["tel:", "not confirmed"]),
        rule(
            "placeIdentifier is unconfirmed",
            fail: [("featuredActions", [Sample.action("a", "place")]), ("featuredActions[0].placeIdentifier", "I1")],
            pass: [("featuredActions", [Sample.action("a", "place")])],
            PassProblemCode.unconfirmedKey, at: "featuredActions[0].placeIdentifier", .warning,
            mentions: ["passkit-generator"]),
        rule(
            "unknown key inside a featured action",
            fail: [("featuredActions", [Sample.action("a")]), ("featuredActions[0].title", "Shop")], pass: [],
            PassProblemCode.unknownKey, at: "featuredActions[0].title", .warning),
        rule(
            "featured actions on a poster event ticket", .eventTicket,
            fail: [
                ("preferredStyleSchemes", ["posterEventTicket", "eventTicket"]), ("semantics", posterSemantics),
                ("featuredActions", [Sample.action("a", "viewSchedule")]),
            ],
            pass: [("semantics", posterSemantics), ("featuredActions", [Sample.action("a", "viewSchedule")])],
            PassProblemCode.actionsNotShown, at: "featuredActions", .warning, mentions: ["poster event tickets"]),
        rule(
            "featured actions on a semantic boarding pass", .boardingPass,
            fail: [
                ("preferredStyleSchemes", ["semanticBoardingPass", "boardingPass"]),
                ("featuredActions", [Sample.action("a", "call", "tel:+15555550123")]),
            ],
            pass: [("featuredActions", [Sample.action("a", "call", "tel:+15555550123")])],
            PassProblemCode.actionsNotShown, at: "featuredActions", .warning, mentions: ["semantic boarding passes"]),
    ]

    /// The iOS 27 format first, a QR fallback after it (so only the message rule can fire).
    static func linear(_ format: String, _ message: String) -> [Edit] {
        [
            ("barcodes[0]", ["format": .string(format), "message": .string(message), "messageEncoding": "iso-8859-1"]),
            (
                "barcodes[1]",
                ["format": "PKBarcodeFormatQR", "message": .string(message), "messageEncoding": "iso-8859-1"]
            ),
        ]
    }

    /// ios27.md: message rules of the four iOS 27 symbologies (the symbologies' rules, not Apple's: warnings).
    static let barcodeMessages: [ValidatorRule] = [
        rule(
            "EAN-13 with a wrong check digit", fail: linear("PKBarcodeFormatEAN13", "4006381333932"),
            pass: linear("PKBarcodeFormatEAN13", "4006381333931"), PassProblemCode.barcodeMessage,
            at: "barcodes[0].message", .warning, mentions: ["check digit", "is 1", "\"4006381333931\"", "symbology"]),
        rule(
            "EAN-13 without its check digit", fail: linear("PKBarcodeFormatEAN13", "400638133393"), pass: [],
            PassProblemCode.barcodeMessage, at: "barcodes[0].message", .warning,
            mentions: ["append the check digit", "\"4006381333931\""]),
        rule(
            "EAN-13 with a letter", fail: linear("PKBarcodeFormatEAN13", "40063813339A"), pass: [],
            PassProblemCode.barcodeMessage, at: "barcodes[0].message", .warning, mentions: ["\"A\""]),
        rule(
            "EAN-13 with 14 digits", fail: linear("PKBarcodeFormatEAN13", "40063813339310"), pass: [],
            PassProblemCode.barcodeMessage, at: "barcodes[0].message", .warning, mentions: ["has 14"]),
        rule(
            "Code 39 in lower case", fail: linear("PKBarcodeFormatCode39", "abc-123"),
            pass: linear("PKBarcodeFormatCode39", "ABC-123 $/+%."), PassProblemCode.barcodeMessage,
            at: "barcodes[0].message", .warning, mentions: ["write \"ABC-123\""]),
        rule(
            "Code 39 with a character it cannot encode", fail: linear("PKBarcodeFormatCode39", "A@B"), pass: [],
            PassProblemCode.barcodeMessage, at: "barcodes[0].message", .warning, mentions: ["\"@\"", "0-9, A-Z"]),
        rule(
            "Codabar start character without a stop character", fail: linear("PKBarcodeFormatCodabar", "A1234"),
            pass: linear("PKBarcodeFormatCodabar", "A1234B"), PassProblemCode.barcodeMessage,
            at: "barcodes[0].message", .warning, mentions: ["stop character"]),
        rule(
            "Codabar with a character it cannot encode", fail: linear("PKBarcodeFormatCodabar", "12*34"),
            pass: linear("PKBarcodeFormatCodabar", "12-34$:/.+"), PassProblemCode.barcodeMessage,
            at: "barcodes[0].message", .warning, mentions: ["\"*\""]),
        rule(
            "I2of5 with an odd number of digits", fail: linear("PKBarcodeFormatI2of5", "12345"),
            pass: linear("PKBarcodeFormatI2of5", "123456"), PassProblemCode.barcodeMessage,
            at: "barcodes[0].message", .warning, mentions: ["even", "\"012345\""]),
        rule(
            "I2of5 with a letter", fail: linear("PKBarcodeFormatI2of5", "12AB"), pass: [],
            PassProblemCode.barcodeMessage, at: "barcodes[0].message", .warning, mentions: ["digits only"]),
    ]
}
