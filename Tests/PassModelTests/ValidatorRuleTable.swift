import Testing

@testable import PassModel

extension ValidatorRule {
    static let uuid: JSONValue = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"
    static func location(_ i: Int) -> JSONValue { ["latitude": .double(37 + Double(i) / 100), "longitude": -122] }

    /// §8 item 15.
    static let barcodes: [ValidatorRule] = [
        rule(
            "barcodes is an object",
            fail: [("barcodes", ["format": "PKBarcodeFormatQR", "message": "x", "messageEncoding": "iso-8859-1"])],
            pass: [], invalid, at: "barcodes", mentions: ["wrap it in [ … ]"]),
        rule(
            "barcode without format", fail: [("barcodes[0].format", nil)], pass: [], missing, at: "barcodes[0].format"),
        rule(
            "barcode format unknown", fail: [("barcodes[0].format", "PKBarcodeFormatQRCode")],
            pass: [("barcodes[0].format", "PKBarcodeFormatAztec")],
            invalid, at: "barcodes[0].format", mentions: ["did you mean \"PKBarcodeFormatQR\"?"]),
        rule(
            "barcode without message", fail: [("barcodes[0].message", nil)], pass: [], missing,
            at: "barcodes[0].message"),
        rule(
            "barcode message empty", fail: [("barcodes[0].message", "")], pass: [("barcodes[0].message", "1")], invalid,
            at: "barcodes[0].message"),
        rule(
            "barcode without messageEncoding", fail: [("barcodes[0].messageEncoding", nil)], pass: [], missing,
            at: "barcodes[0].messageEncoding"),
        rule(
            "barcode messageEncoding empty", fail: [("barcodes[0].messageEncoding", "")],
            pass: [("barcodes[0].messageEncoding", "utf-8")],
            invalid, at: "barcodes[0].messageEncoding"),
        rule(
            "iOS 27 format with no legacy fallback after it",
            fail: [
                (
                    "barcodes[1]",
                    ["format": "PKBarcodeFormatEAN13", "message": "4006381333931", "messageEncoding": "iso-8859-1"]
                )
            ],
            pass: [
                ("barcodes[0].format", "PKBarcodeFormatEAN13"),
                ("barcodes[1]", ["format": "PKBarcodeFormatQR", "message": "x", "messageEncoding": "iso-8859-1"]),
            ],
            invalid, at: "barcodes[1].format", .warning, mentions: ["iOS 27"]),
        rule(
            "Code128 in the legacy barcode",
            fail: [("barcode", ["format": "PKBarcodeFormatCode128", "message": "x", "messageEncoding": "iso-8859-1"])],
            pass: [("barcode", ["format": "PKBarcodeFormatPDF417", "message": "x", "messageEncoding": "iso-8859-1"])],
            invalid, at: "barcode.format", mentions: ["Code128"]),
        rule(
            "legacy barcode is an array", fail: [("barcode", [["format": "PKBarcodeFormatQR"]])], pass: [], invalid,
            at: "barcode"),
    ]

    /// §8 items 13 (dates) and 18 (locations), and the relevance keys of §1.4.
    static let relevance: [ValidatorRule] = [
        rule(
            "more than 10 locations", fail: [("locations", .array((0..<11).map(location)))],
            pass: [("locations", .array((0..<10).map(location)))],
            invalid, at: "locations", mentions: ["at most 10"]),
        rule(
            "location without latitude", fail: [("locations[0]", ["longitude": 1])],
            pass: [("locations[0]", ["longitude": 1, "latitude": 2])],
            missing, at: "locations[0].latitude"),
        rule(
            "latitude out of range", fail: [("locations[0]", ["longitude": 1, "latitude": 95])], pass: [], invalid,
            at: "locations[0].latitude"),
        rule(
            "beacon major above 65535", fail: [("beacons[0]", ["proximityUUID": uuid, "major": 70000])],
            pass: [("beacons[0]", ["proximityUUID": uuid, "major": 65535])], invalid, at: "beacons[0].major",
            mentions: ["0 to 65535"]),
        rule(
            "beacon minor negative", fail: [("beacons[0]", ["proximityUUID": uuid, "minor": -1])], pass: [], invalid,
            at: "beacons[0].minor"),
        rule(
            "beacon without proximityUUID", fail: [("beacons[0]", ["major": 1])], pass: [], missing,
            at: "beacons[0].proximityUUID"),
        rule(
            "beacon proximityUUID not a UUID", fail: [("beacons[0]", ["proximityUUID": "beacon-1"])], pass: [], invalid,
            at: "beacons[0].proximityUUID"),
        rule(
            "maxDistance not positive", fail: [("maxDistance", -5)], pass: [("maxDistance", 50)], invalid,
            at: "maxDistance"),
        rule(
            "relevantDate without time", fail: [("relevantDate", "2026-07-22")],
            pass: [("relevantDate", "2026-07-22T14:25-08:00")],
            invalid, at: "relevantDate", mentions: ["has no time"]),
        rule(
            "expirationDate without zone", fail: [("expirationDate", "2026-07-22T14:25")],
            pass: [("expirationDate", "2026-07-22T14:25Z")],
            invalid, at: "expirationDate", mentions: ["no time zone"]),
        rule(
            "relevantDates startDate without endDate", fail: [("relevantDates[0]", ["startDate": "2026-07-22T14:00Z"])],
            pass: [("relevantDates[0]", ["startDate": "2026-07-22T14:00Z", "endDate": "2026-07-22T16:00Z"])],
            invalid, at: "relevantDates[0].endDate", mentions: ["endDate"]),
        rule(
            "relevantDates entry with no date", fail: [("relevantDates[0]", [:])],
            pass: [("relevantDates[0]", ["date": "2026-07-22T14:00Z"])],
            invalid, at: "relevantDates[0]"),
        rule(
            "relevantDates interval ends before it starts",
            fail: [("relevantDates[0]", ["startDate": "2026-07-22T14:00Z", "endDate": "2026-07-22T13:00Z"])],
            pass: [], invalid, at: "relevantDates[0].endDate"),
        rule(
            "relevantDates interval longer than 24 hours",
            fail: [("relevantDates[0]", ["startDate": "2026-07-22T14:00Z", "endDate": "2026-07-24T14:00Z"])],
            pass: [("relevantDates[0]", ["startDate": "2026-07-22T14:00Z", "endDate": "2026-07-23T14:00Z"])],
            invalid, at: "relevantDates[0].endDate", .warning),
        rule(
            "relevantDates date not ISO 8601", fail: [("relevantDates[0]", ["date": "tomorrow"])], pass: [], invalid,
            at: "relevantDates[0].date"),
    ]

    /// §8 items 16–18 and NFC (§1.7).
    static let service: [ValidatorRule] = [
        rule(
            "webServiceURL over plain http",
            fail: [("webServiceURL", "http://127.0.0.1:8080/"), ("authenticationToken", "0123456789abcdef")],
            pass: [("webServiceURL", "https://passes.example.com/"), ("authenticationToken", "0123456789abcdef")],
            invalid, at: "webServiceURL", .warning, mentions: ["https"]),
        rule(
            "webServiceURL not a URL",
            fail: [("webServiceURL", "passes.example.com"), ("authenticationToken", "0123456789abcdef")],
            pass: [], invalid, at: "webServiceURL"),
        rule(
            "webServiceURL without authenticationToken", fail: [("webServiceURL", "https://passes.example.com/")],
            pass: [],
            invalid, at: "authenticationToken", mentions: ["at least 16"]),
        rule(
            "authenticationToken without webServiceURL", fail: [("authenticationToken", "0123456789abcdef")], pass: [],
            invalid, at: "webServiceURL"),
        rule(
            "authenticationToken shorter than 16",
            fail: [("webServiceURL", "https://x.example/"), ("authenticationToken", "short")],
            pass: [("webServiceURL", "https://x.example/"), ("authenticationToken", "0123456789abcdef")], invalid,
            at: "authenticationToken",
            mentions: ["5 characters"]),
        rule(
            "appLaunchURL without associatedStoreIdentifiers", fail: [("appLaunchURL", "myapp://open")],
            pass: [("appLaunchURL", "myapp://open"), ("associatedStoreIdentifiers", [284_882_215])], invalid,
            at: "appLaunchURL", .warning, mentions: ["ignores the URL"]),
        rule(
            "associatedStoreIdentifiers as strings", fail: [("associatedStoreIdentifiers", ["284882215"])], pass: [],
            invalid, at: "associatedStoreIdentifiers[0]"),
        rule(
            "groupingIdentifier on a store card", fail: [("groupingIdentifier", "g")], pass: [], invalid,
            at: "groupingIdentifier", .warning),
        rule(
            "nfc without message", fail: [("nfc", ["encryptionPublicKey": "QUJD"])],
            pass: [("nfc", ["encryptionPublicKey": "QUJD", "message": "m"])],
            invalid, at: "nfc.message"),
        rule(
            "nfc without encryptionPublicKey", fail: [("nfc", ["message": "m"])], pass: [], invalid,
            at: "nfc.encryptionPublicKey"),
        rule(
            "nfc encryptionPublicKey not Base64",
            fail: [("nfc", ["message": "m", "encryptionPublicKey": "-----BEGIN PUBLIC KEY-----"])],
            pass: [], invalid, at: "nfc.encryptionPublicKey"),
        rule(
            "nfc message longer than 64 bytes",
            fail: [("nfc", ["message": .string(String(repeating: "x", count: 65)), "encryptionPublicKey": "QUJD"])],
            pass: [], invalid, at: "nfc.message", .warning),
    ]

    static let posterSemantics: JSONValue = [
        "eventName": "Concert", "venueName": "Hall", "venueRegionName": "Springfield", "venueRoom": "Main",
    ]

    /// §8 item 19 (poster event tickets).
    static let poster: [ValidatorRule] = [
        rule(
            "poster ticket without venueRoom", .eventTicket,
            fail: [
                ("preferredStyleSchemes", ["posterEventTicket", "eventTicket"]), ("semantics", posterSemantics),
                ("semantics.venueRoom", nil),
            ],
            pass: [("preferredStyleSchemes", ["posterEventTicket", "eventTicket"]), ("semantics", posterSemantics)],
            PassProblemCode.posterFallback, at: "semantics.venueRoom", .warning, mentions: ["falls back"]),
        rule(
            "poster ticket without any semantics", .eventTicket,
            fail: [("preferredStyleSchemes", ["posterEventTicket"])], pass: [],
            PassProblemCode.posterFallback, at: "semantics.eventName", .warning),
        rule(
            "sports poster without team abbreviations", .eventTicket,
            fail: [
                ("preferredStyleSchemes", ["posterEventTicket"]), ("semantics", posterSemantics),
                ("semantics.eventType", "PKEventTypeSports"),
            ],
            pass: [
                ("preferredStyleSchemes", ["posterEventTicket"]), ("semantics", posterSemantics),
                ("semantics.eventType", "PKEventTypeSports"),
                ("semantics.homeTeamAbbreviation", "SFG"), ("semantics.awayTeamAbbreviation", "LAD"),
            ],
            PassProblemCode.posterFallback, at: "semantics.homeTeamAbbreviation", .warning),
        rule(
            "live-performance poster without performerNames", .eventTicket,
            fail: [
                ("preferredStyleSchemes", ["posterEventTicket"]), ("semantics", posterSemantics),
                ("semantics.eventType", "PKEventTypeLivePerformance"),
            ],
            pass: [
                ("preferredStyleSchemes", ["posterEventTicket"]), ("semantics", posterSemantics),
                ("semantics.eventType", "PKEventTypeLivePerformance"),
                ("semantics.performerNames", ["The Band"]),
            ],
            PassProblemCode.posterFallback, at: "semantics.performerNames", .warning),
        rule(
            "poster scheme on a store card", fail: [("preferredStyleSchemes", ["posterEventTicket"])], pass: [],
            PassProblemCode.posterFallback, at: "preferredStyleSchemes", .warning),
        rule(
            "semantic date not ISO 8601", .eventTicket, fail: [("semantics", ["eventStartDate": "July 22"])],
            pass: [("semantics", ["eventStartDate": "2026-07-22T19:30-07:00"])], invalid,
            at: "semantics.eventStartDate", .warning),
        rule("semantics is not an object", fail: [("semantics", ["a", "b"])], pass: [], invalid, at: "semantics"),
    ]

    static let all: [ValidatorRule] =
        topLevel + fields + genericFields + barcodes + relevance + service + poster + posterGeneric + featuredActions
        + barcodeMessages + appleValidator
}
