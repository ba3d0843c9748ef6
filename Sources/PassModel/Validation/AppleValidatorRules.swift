/// One rule of Apple's own validator (apple/pass-builder's `PassValidator`, June 2026 preview, whose errors block
/// signing in Apple's tool) and the PassMint rule that carries it.
public struct AppleValidatorRule: Sendable {
    /// How PassMint's reading of the rule compares with Apple's.
    public enum Agreement: String, Sendable {
        /// The same severity: Wallet's behaviour agrees with Apple's validator.
        case same
        /// Apple's validator refuses to sign; Wallet still installs the pass (falling back to the classic layout),
        /// so PassMint warns and its message says both.
        case walletInstalls
        /// PassMint refuses more than Apple's validator does (it names the key; Apple refuses the whole file).
        case stricter
    }

    /// The passes the rule applies to, e.g. "poster event ticket".
    public var appliesTo: String
    /// Apple's message, e.g. "NFC data is required".
    public var apple: String
    /// The severity in Apple's validator (an error blocks signing in Apple's tool).
    public var appleSeverity: Problem.Severity
    /// The PassMint problem code.
    public var code: ProblemCode
    /// The JSON path or file PassMint reports; `*.` stands for any field's path.
    public var path: String
    /// The severity PassMint reports.
    public var severity: Problem.Severity
    public var agreement: Agreement
}

/// Every rule of Apple's validator, as PassMint carries it. `verify` reports each with its code and path, `lint`
/// turns them into rows, and the README's table is `markdownTable`.
public enum AppleValidatorRules {
    static let poster = "poster event ticket"
    static let boarding = "semantic boarding pass"

    private static func rule(
        _ appliesTo: String, _ apple: String, _ appleSeverity: Problem.Severity, _ code: ProblemCode, _ path: String,
        _ severity: Problem.Severity, _ agreement: AppleValidatorRule.Agreement
    ) -> AppleValidatorRule {
        AppleValidatorRule(
            appliesTo: appliesTo, apple: apple, appleSeverity: appleSeverity, code: code, path: path,
            severity: severity, agreement: agreement)
    }

    private static func required(_ tag: String, _ apple: String) -> AppleValidatorRule {
        rule(
            boarding, apple, .error, PassProblemCode.semanticBoardingFallback, "semantics." + tag, .warning,
            .walletInstalls)
    }

    private static func recommended(_ appliesTo: String, _ tag: String, _ apple: String) -> AppleValidatorRule {
        rule(appliesTo, apple, .warning, PassProblemCode.semanticsRecommended, "semantics." + tag, .warning, .same)
    }

    /// In the order of Apple's validator plugins: event ticket, seats, boarding pass, field formatting, images,
    /// then the colour format its JSON decoder enforces.
    public static let all: [AppleValidatorRule] = [
        rule(poster, "NFC data is required", .error, PassProblemCode.posterNFC, "nfc", .warning, .walletInstalls),
        rule(
            poster, "NFC auth data is required", .error, PassProblemCode.posterNFCAuthentication,
            "nfc.requiresAuthentication", .warning, .walletInstalls),
        rule(
            poster, "Event name is required", .error, PassProblemCode.posterFallback, "semantics.eventName", .warning,
            .walletInstalls),
        rule(
            poster, "Venue name is required", .error, PassProblemCode.posterFallback, "semantics.venueName", .warning,
            .walletInstalls),
        recommended(poster, "eventStartDate", "Start date is recommended"),
        rule(
            poster, "Event end date is before start date", .warning, PassProblemCode.invalidValue,
            "semantics.eventEndDate", .warning, .same),
        rule(
            "sports " + poster, "Away team abbreviation is required", .error, PassProblemCode.posterFallback,
            "semantics.awayTeamAbbreviation", .warning, .walletInstalls),
        rule(
            "sports " + poster, "Home team abbreviation is required", .error, PassProblemCode.posterFallback,
            "semantics.homeTeamAbbreviation", .warning, .walletInstalls),
        rule(
            "live-performance " + poster, "Live performer’s name is required", .error, PassProblemCode.posterFallback,
            "semantics.performerNames", .warning, .walletInstalls),
        recommended("live-performance " + poster, "artistIDs", "Artist ID is recommended"),
        rule(
            poster, "Image ‘artwork’ is required for Poster Event Tickets (artwork or background)", .error,
            PassProblemCode.missingPosterArt, "artwork.png", .warning, .walletInstalls),
        recommended(poster + ", " + boarding, "seats", "Seat details are recommended"),
        required("airlineCode", "Airline Code is required"),
        required("flightNumber", "Flight number is required"),
        required("originalDepartureDate", "Departure date is required"),
        required("originalBoardingDate", "Boarding date is required"),
        required("originalArrivalDate", "Arrival date is required"),
        required("departureAirportTimeZone", "Departure timezone is required"),
        required("departureAirportCode", "Departure airport code is required"),
        recommended(boarding, "departureCityName", "Departure city name is recommended"),
        recommended(boarding, "destinationAirportTimeZone", "Destination airport timezone is recommended"),
        required("destinationAirportCode", "Arrival airport code is required"),
        recommended(boarding, "destinationCityName", "Destination airport name is recommended"),
        required("passengerName", "Passenger name is required"),
        rule(
            "every pass", "Currency code and number format can’t be set at the same time", .warning,
            PassProblemCode.numberFormatConflict, "*.numberStyle", .warning, .same),
        rule(
            "every pass", "Image ‘icon@2x’ is recommended", .warning, PassProblemCode.missingImageScale,
            "icon@2x.png", .warning, .same),
        rule(
            "every pass", "Image ‘icon@3x’ is recommended", .warning, PassProblemCode.missingImageScale,
            "icon@3x.png", .warning, .same),
        rule(
            "every pass", "Image ‘icon@2x’ / ‘icon@3x’ is required (no icon at all)", .error,
            PassProblemCode.missingIcon,
            "icon.png", .error, .same),
        rule(
            "every pass", "a colour (any colour key) other than #hex or rgb() makes the whole pass.json unreadable",
            .error,
            PassProblemCode.invalidValue, "backgroundColor", .error, .stricter),
    ]

    /// The rule table the README shows: one row per rule of Apple's validator.
    public static func markdownTable() -> String {
        var out = "| applies to | Apple's validator says | Apple | PassMint code | path | PassMint | agrees |\n"
        out += "|---|---|---|---|---|---|---|\n"
        for r in all {
            out +=
                "| \(r.appliesTo) | \(r.apple) | \(r.appleSeverity.rawValue) | `\(r.code)` | `\(r.path)` "
                + "| \(r.severity.rawValue) | \(agreementText(r.agreement)) |\n"
        }
        return out
    }

    /// The "agrees" column: "yes", or what differs.
    public static func agreementText(_ agreement: AppleValidatorRule.Agreement) -> String {
        switch agreement {
        case .same: return "yes"
        case .walletInstalls: return "no: Apple refuses to sign, Wallet installs (the message says both)"
        case .stricter: return "stricter: PassMint also refuses #hex and names the key"
        }
    }
}
