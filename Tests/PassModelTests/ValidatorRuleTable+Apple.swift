import Testing

@testable import PassModel

/// The rules of Apple's own validator (apple/pass-builder), each with a failing and a passing edit.
extension ValidatorRule {
    static let posterNFC: JSONValue = ["message": "T-1", "encryptionPublicKey": "QUJD", "requiresAuthentication": true]

    /// A poster event ticket with everything Apple's validator and Wallet ask for (pass.json only).
    static let posterTicket: [Edit] = [
        ("preferredStyleSchemes", ["posterEventTicket", "eventTicket"]), ("semantics", posterSemantics),
        ("semantics.eventStartDate", "2027-06-12T19:30:00+02:00"),
        ("semantics.seats", [["seatSection": "112", "seatRow": "F", "seatNumber": "14"]]), ("nfc", posterNFC),
    ]

    static let icons = ["icon.png", "icon@2x.png", "icon@3x.png"]

    static let boardingTags: JSONValue = [
        "airlineCode": "EX", "flightNumber": 123, "originalDepartureDate": "2027-06-12T09:40:00+02:00",
        "originalBoardingDate": "2027-06-12T09:05:00+02:00", "originalArrivalDate": "2027-06-12T11:55:00+01:00",
        "departureAirportCode": "BER", "destinationAirportCode": "LHR", "departureAirportTimeZone": "Europe/Berlin",
        "destinationAirportTimeZone": "Europe/London", "departureCityName": "Berlin", "destinationCityName": "London",
        "passengerName": ["givenName": "Ada", "familyName": "Lovelace"],
        "seats": [["seatNumber": "14A"]],
    ]

    /// A semantic boarding pass with every tag Apple's validator requires or recommends.
    static let semanticBoarding: [Edit] = [
        ("preferredStyleSchemes", ["semanticBoardingPass", "boardingPass"]), ("semantics", boardingTags),
    ]

    static let refuses = "Apple's validator refuses to sign this"

    static func boardingRequired(_ tag: String) -> ValidatorRule {
        rule(
            "semantic boarding pass without \(tag)", .boardingPass,
            fail: semanticBoarding + [("semantics.\(tag)", nil)],
            // Without the scheme the same tags are not asked for.
            pass: [("semantics", boardingTags), ("semantics.\(tag)", nil)],
            PassProblemCode.semanticBoardingFallback, at: "semantics.\(tag)", .warning,
            mentions: [refuses, "classic boarding pass"])
    }

    static func boardingRecommended(_ tag: String) -> ValidatorRule {
        rule(
            "semantic boarding pass without \(tag)", .boardingPass,
            fail: semanticBoarding + [("semantics.\(tag)", nil)], pass: semanticBoarding,
            PassProblemCode.semanticsRecommended, at: "semantics.\(tag)", .warning, mentions: ["recommends"])
    }

    static let appleValidator: [ValidatorRule] =
        [
            rule(
                "poster event ticket without nfc", .eventTicket, fail: posterTicket + [("nfc", nil)],
                pass: posterTicket, PassProblemCode.posterNFC, at: "nfc", .warning,
                mentions: [refuses, "classic event layout", "Pass Type ID with NFC", "requiresAuthentication"]),
            rule(
                "nfc is not asked of a classic event ticket", .eventTicket,
                fail: posterTicket + [("nfc", nil)], pass: [("semantics", posterSemantics)],
                PassProblemCode.posterNFC, at: "nfc", .warning),
            rule(
                "poster event ticket's nfc without requiresAuthentication (false is an answer too)", .eventTicket,
                fail: posterTicket + [("nfc.requiresAuthentication", nil)],
                pass: posterTicket + [("nfc.requiresAuthentication", false)],
                PassProblemCode.posterNFCAuthentication, at: "nfc.requiresAuthentication", .warning,
                mentions: [refuses, "\"requiresAuthentication\": true", "sharingProhibited"]),
            rule(
                "poster event ticket without eventName", .eventTicket,
                fail: posterTicket + [("semantics.eventName", nil)], pass: posterTicket,
                PassProblemCode.posterFallback, at: "semantics.eventName", .warning, mentions: ["falls back", refuses]),
            rule(
                "poster event ticket with a blank venueName", .eventTicket,
                fail: posterTicket + [("semantics.venueName", " ")], pass: posterTicket,
                PassProblemCode.posterFallback, at: "semantics.venueName", .warning, mentions: ["falls back", refuses]),
            rule(
                "poster event ticket without venueRoom: Wallet's rule, not Apple's validator's", .eventTicket,
                fail: posterTicket + [("semantics.venueRoom", nil)], pass: posterTicket,
                PassProblemCode.posterFallback, at: "semantics.venueRoom", .warning, mentions: ["falls back"]),
            rule(
                "poster event ticket without eventStartDate", .eventTicket,
                fail: posterTicket + [("semantics.eventStartDate", nil)], pass: posterTicket,
                PassProblemCode.semanticsRecommended, at: "semantics.eventStartDate", .warning,
                mentions: ["recommends", "eventStartDate"]),
            rule(
                "event ends before it starts", .eventTicket,
                fail: posterTicket + [("semantics.eventEndDate", "2027-06-12T18:00:00+02:00")],
                pass: posterTicket + [("semantics.eventEndDate", "2027-06-12T22:30:00+02:00")],
                invalid, at: "semantics.eventEndDate", .warning, mentions: ["before eventStartDate"]),
            rule(
                "sports poster without the away team's abbreviation", .eventTicket,
                fail: posterTicket + [
                    ("semantics.eventType", "PKEventTypeSports"), ("semantics.homeTeamAbbreviation", "SFG"),
                ],
                pass: posterTicket + [
                    ("semantics.eventType", "PKEventTypeSports"), ("semantics.homeTeamAbbreviation", "SFG"),
                    ("semantics.awayTeamAbbreviation", "LAD"),
                ],
                PassProblemCode.posterFallback, at: "semantics.awayTeamAbbreviation", .warning, mentions: [refuses]),
            rule(
                "live-performance poster without performerNames", .eventTicket,
                fail: posterTicket + [
                    ("semantics.eventType", "PKEventTypeLivePerformance"), ("semantics.artistIDs", ["1"]),
                ],
                pass: posterTicket + [
                    ("semantics.eventType", "PKEventTypeLivePerformance"), ("semantics.artistIDs", ["1"]),
                    ("semantics.performerNames", ["The Band"]),
                ],
                PassProblemCode.posterFallback, at: "semantics.performerNames", .warning, mentions: [refuses]),
            rule(
                "live-performance poster without artistIDs", .eventTicket,
                fail: posterTicket + [
                    ("semantics.eventType", "PKEventTypeLivePerformance"), ("semantics.performerNames", ["The Band"]),
                ],
                pass: posterTicket + [
                    ("semantics.eventType", "PKEventTypeLivePerformance"), ("semantics.performerNames", ["The Band"]),
                    ("semantics.artistIDs", ["909253"]),
                ],
                PassProblemCode.semanticsRecommended, at: "semantics.artistIDs", .warning,
                mentions: ["recommends", "Apple Music"]),
            rule(
                "poster event ticket with an empty seats list", .eventTicket,
                fail: posterTicket + [("semantics.seats", [])], pass: posterTicket,
                PassProblemCode.semanticsRecommended, at: "semantics.seats", .warning, mentions: ["seatSection"]),
            ValidatorRule(
                name: "poster event ticket without artwork or background: background.png answers it",
                base: .eventTicket, failing: posterTicket, passing: posterTicket,
                code: PassProblemCode.missingPosterArt, path: "artwork.png", severity: .warning,
                mentions: [refuses, "artwork.png or background.png"], failingFiles: icons,
                passingFiles: icons + ["background.png"]),
            ValidatorRule(
                name: "poster event ticket without artwork or background: artwork@2x.png answers it",
                base: .eventTicket, failing: posterTicket, passing: posterTicket,
                code: PassProblemCode.missingPosterArt, path: "artwork.png", severity: .warning,
                failingFiles: icons + ["logo.png", "thumbnail.png"], passingFiles: icons + ["artwork@2x.png"]),
            ValidatorRule(
                name: "poster art is not asked of a classic event ticket",
                base: .eventTicket, failing: posterTicket, passing: [("semantics", posterSemantics)],
                code: PassProblemCode.missingPosterArt, path: "artwork.png", severity: .warning,
                failingFiles: icons, passingFiles: icons),
            rule(
                "semantic boarding pass without the departure time zone", .boardingPass,
                fail: semanticBoarding + [("semantics.departureAirportTimeZone", nil)], pass: semanticBoarding,
                PassProblemCode.semanticBoardingFallback, at: "semantics.departureAirportTimeZone", .warning,
                mentions: [refuses, "classic boarding pass", "IANA", "Europe/Berlin"]),
            rule(
                "semantic boarding pass with only departureLocationTimeZone", .boardingPass,
                fail: semanticBoarding + [
                    ("semantics.departureAirportTimeZone", nil),
                    ("semantics.departureLocationTimeZone", "Europe/Berlin"),
                ],
                pass: semanticBoarding + [("semantics.departureLocationTimeZone", "Europe/Berlin")],
                PassProblemCode.semanticBoardingFallback, at: "semantics.departureAirportTimeZone", .warning,
                mentions: ["the pass has departureLocationTimeZone", "write both"]),
            rule(
                "semantic boarding pass without the destination time zone", .boardingPass,
                fail: semanticBoarding + [("semantics.destinationAirportTimeZone", nil)], pass: semanticBoarding,
                PassProblemCode.semanticsRecommended, at: "semantics.destinationAirportTimeZone", .warning,
                mentions: ["recommends", "Europe/London"]),
            rule(
                "field with both currencyCode and numberStyle",
                fail: [("storeCard.primaryFields[0].numberStyle", "PKNumberStyleDecimal")],
                pass: [
                    ("storeCard.primaryFields[0].currencyCode", nil),
                    ("storeCard.primaryFields[0].numberStyle", "PKNumberStyleDecimal"),
                ],
                PassProblemCode.numberFormatConflict, at: "storeCard.primaryFields[0].numberStyle", .warning,
                mentions: ["remove numberStyle"]),
            ValidatorRule(
                name: "icon without icon@2x.png", failing: [], passing: [], code: PassProblemCode.missingImageScale,
                path: "icon@2x.png", severity: .warning, mentions: ["58×58"],
                failingFiles: ["icon.png", "icon@3x.png"],
                passingFiles: icons),
            ValidatorRule(
                name: "icon without icon@3x.png", failing: [], passing: [], code: PassProblemCode.missingImageScale,
                path: "icon@3x.png", severity: .warning, mentions: ["87×87", "recommends"],
                failingFiles: ["icon.png", "icon@2x.png", "de.lproj/icon@3x.png"], passingFiles: icons),
        ]
        + [
            "airlineCode", "flightNumber", "originalDepartureDate", "originalBoardingDate", "originalArrivalDate",
            "departureAirportCode", "destinationAirportCode", "passengerName",
        ].map(boardingRequired)
        + ["departureCityName", "destinationCityName", "seats"].map(boardingRecommended)
}
