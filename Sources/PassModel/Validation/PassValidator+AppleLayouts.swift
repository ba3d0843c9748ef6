/// The rules of Apple's own validator (apple/pass-builder `EventTicketValidator`, `SeatValidator`,
/// `BoardingPassValidator`) for the two layouts a pass asks for in `preferredStyleSchemes`. Apple's validator calls
/// the missing NFC, poster art and required boarding tags errors and refuses to sign; Wallet still installs such a
/// pass and shows the classic layout (Apple's articles: it "runs the appropriate validation … or falls back"), so
/// PassMint warns and each message says both.
extension Checker {
    static let appleRefuses = "Apple's validator refuses to sign this"

    /// A poster event ticket: NFC with `requiresAuthentication`, a start date, artist IDs for a live performance,
    /// seats. The semantic tags Wallet itself needs are `checkPosterSemantics`.
    mutating func checkPosterEventTicket(_ root: [String: JSONValue], tags: [String: JSONValue]) {
        if root["nfc"] == nil {
            warning(
                PassProblemCode.posterNFC, "nfc",
                "a poster event ticket needs \"nfc\": \(Self.appleRefuses); Wallet still installs the pass and "
                    + "shows the classic event layout instead on iOS 18–26 (iOS 27 is reported to draw barcode-only "
                    + "poster tickets) — add \"nfc\": {\"message\": …, "
                    + "\"encryptionPublicKey\": …, \"requiresAuthentication\": true} and sign with a \"Pass Type ID "
                    + "with NFC\" certificate, or remove posterEventTicket from preferredStyleSchemes")
        } else if let nfc = root["nfc"]?.objectValue, nfc["requiresAuthentication"] == nil {
            warning(
                PassProblemCode.posterNFCAuthentication, "nfc.requiresAuthentication",
                "the nfc of a poster event ticket needs \"requiresAuthentication\": \(Self.appleRefuses); Wallet "
                    + "still installs the pass (Apple does not say which layout it shows) — add "
                    + "\"requiresAuthentication\": true (Face ID, "
                    + "Touch ID or passcode before each tap; pair it with \"sharingProhibited\": true) or false")
        }
        if !Self.hasValue(tags["eventStartDate"]) {
            recommend(
                "eventStartDate", "a poster event ticket",
                "the event's start, e.g. \"2027-06-12T19:30:00+02:00\"")
        }
        if tags["eventType"]?.stringValue == EventType.livePerformance.rawValue, !Self.hasValue(tags["artistIDs"]) {
            recommend(
                "artistIDs", "a live-performance poster ticket",
                "the Apple Music ID of each performer, most significant first, e.g. [\"909253\"]")
        }
        recommendSeats("a poster event ticket", tags)
    }

    /// A semantic boarding pass (iOS 26): Apple's validator requires the flight, the airports with the departure
    /// time zone, the scheduled dates and the passenger, and recommends city names, the destination time zone and
    /// seats.
    mutating func checkSemanticBoardingPass(_ tags: [String: JSONValue]) {
        let required: [(String, String)] = [
            ("airlineCode", "the IATA airline code, e.g. \"EX\""),
            ("flightNumber", "the number of the flight code, e.g. 123 for EX123"),
            ("originalDepartureDate", "the scheduled departure, e.g. \"2027-06-12T09:40:00+02:00\""),
            ("originalBoardingDate", "the scheduled boarding time, e.g. \"2027-06-12T09:05:00+02:00\""),
            ("originalArrivalDate", "the scheduled arrival, e.g. \"2027-06-12T11:55:00+01:00\""),
            ("departureAirportCode", "the IATA code of the departure airport, e.g. \"TXL\""),
            ("destinationAirportCode", "the IATA code of the destination airport, e.g. \"LHR\""),
            ("passengerName", "{\"givenName\": …, \"familyName\": …}"),
        ]
        for (tag, hint) in required where !Self.hasValue(tags[tag]) {
            warning(
                PassProblemCode.semanticBoardingFallback, JSONPath.member("semantics", tag),
                "a semantic boarding pass needs semantics.\(tag): \(Self.appleRefuses); Wallet shows the classic "
                    + "boarding pass instead — add \"\(tag)\" with \(hint)")
        }
        if !Self.hasValue(tags[Self.departureZone]) {
            warning(
                PassProblemCode.semanticBoardingFallback, JSONPath.member("semantics", Self.departureZone),
                "a semantic boarding pass needs the departure airport's time zone: \(Self.appleRefuses); Wallet "
                    + "shows the classic boarding pass instead — add \"\(Self.departureZone)\" with an IANA zone "
                    + "such as \"Europe/Berlin\"" + Self.zoneSpelling(tags, "departure"))
        }
        if !Self.hasValue(tags[Self.destinationZone]) {
            recommend(
                Self.destinationZone, "a semantic boarding pass",
                "an IANA zone such as \"Europe/London\", so arrival times show in the destination's time"
                    + Self.zoneSpelling(tags, "destination"))
        }
        for (tag, example) in [("departureCityName", "Berlin"), ("destinationCityName", "London")]
        where !Self.hasValue(tags[tag]) {
            recommend(tag, "a semantic boarding pass", "the city the boarding pass shows, e.g. \"\(example)\"")
        }
        recommendSeats("a semantic boarding pass", tags)
    }

    /// The time-zone tag names Apple's validator reads. Apple's reference and other tools also write
    /// `departureLocationTimeZone` / `destinationLocationTimeZone`; the validator does not read those.
    static let departureZone = "departureAirportTimeZone"
    static let destinationZone = "destinationAirportTimeZone"

    /// A note when the pass carries the other spelling of a time-zone tag.
    static func zoneSpelling(_ tags: [String: JSONValue], _ end: String) -> String {
        let other = "\(end)LocationTimeZone"
        guard hasValue(tags[other]) else { return "" }
        return
            " (the pass has \(other); Apple's validator reads \(end)AirportTimeZone, so write both with the same zone)"
    }

    mutating func recommendSeats(_ layout: String, _ tags: [String: JSONValue]) {
        guard !Self.hasValue(tags["seats"]) else { return }
        recommend(
            "seats", layout,
            "[{\"seatSection\": …, \"seatRow\": …, \"seatNumber\": …}] (or {\"seatDescription\": \"General admission\"})"
        )
    }

    /// A `pass.semantics-recommended` warning for `tag`.
    mutating func recommend(_ tag: String, _ layout: String, _ hint: String) {
        warning(
            PassProblemCode.semanticsRecommended, JSONPath.member("semantics", tag),
            "Apple's validator recommends semantics.\(tag) for \(layout) (a warning there too; the pass installs "
                + "and keeps its layout) — add \"\(tag)\" with \(hint)")
    }

    /// Apple's "empty": absent, an empty or blank string, an empty array or object.
    static func hasValue(_ v: JSONValue?) -> Bool {
        switch v {
        case nil, .null?: return false
        case .string(let s)?: return !s.isBlank
        case .array(let a)?: return !a.isEmpty
        case .object(let o)?: return !o.isEmpty
        default: return true
        }
    }
}
