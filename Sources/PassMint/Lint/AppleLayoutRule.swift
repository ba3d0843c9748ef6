import PassModel

/// The rules of Apple's own validator as Before / After rows, read from `PassValidator`'s findings (never a second
/// copy of the rules): a poster event ticket's NFC, poster art and recommended tags, a semantic boarding pass's
/// tags, a field with both currencyCode and numberStyle. The icon's @2x/@3x are `ImageRule`'s rows.
enum AppleLayoutRule {
    /// Example values for the tags the rows ask for.
    static let examples: [String: String] = [
        "eventStartDate": "\"2027-06-12T19:30:00+02:00\"", "artistIDs": "[\"909253\"]",
        "seats": "[{\"seatSection\": \"112\", \"seatRow\": \"F\", \"seatNumber\": \"14\"}]",
        "airlineCode": "\"EX\"", "flightNumber": "123",
        "originalDepartureDate": "\"2027-06-12T09:40:00+02:00\"",
        "originalBoardingDate": "\"2027-06-12T09:05:00+02:00\"",
        "originalArrivalDate": "\"2027-06-12T11:55:00+01:00\"",
        "departureAirportCode": "\"BER\"", "destinationAirportCode": "\"LHR\"",
        "departureAirportTimeZone": "\"Europe/Berlin\"", "destinationAirportTimeZone": "\"Europe/London\"",
        "departureCityName": "\"Berlin\"", "destinationCityName": "\"London\"",
        "passengerName": "{\"givenName\": \"Ada\", \"familyName\": \"Lovelace\"}",
    ]

    /// What a recommended tag changes for the holder.
    static let recommendedChanges: [String: String] = [
        "eventStartDate": "Wallet knows when the event starts",
        "artistIDs": "Wallet can link the ticket to the performers in Apple Music",
        "seats": "The seat is part of the ticket's data, not only of its text",
        "destinationAirportTimeZone": "Arrival times show in the destination's time",
        "departureCityName": "The boarding pass names the departure city",
        "destinationCityName": "The boarding pass names the destination city",
    ]

    static func check(_ c: LintContext, into rows: inout [LintRow]) {
        let json = c.source.passJSON
        let problems = PassValidator.validate(json, fileNames: Array(c.source.files.keys))
        let isBoarding = json["boardingPass"] != nil
        for problem in problems {
            switch problem.code {
            case PassProblemCode.posterNFC:
                rows.append(
                    LintRow(
                        LintCode.posterIncomplete, path: problem.path, before: LintRow.missing,
                        after: "\"nfc\": {\"message\": \"…\", \"encryptionPublicKey\": \"…\", "
                            + "\"requiresAuthentication\": true}, signed with a Pass Type ID with NFC certificate",
                        change: "Apple's validator signs the pass, and iOS 18–26 show the poster instead of the "
                            + "classic ticket (holders tap to enter)"))
            case PassProblemCode.posterNFCAuthentication:
                rows.append(
                    LintRow(
                        LintCode.posterIncomplete, path: problem.path, before: LintRow.missing,
                        after: "\"requiresAuthentication\": true",
                        change: "Apple's validator signs the pass; each tap asks for Face ID, Touch ID or the passcode"
                    ))
            case PassProblemCode.missingPosterArt:
                rows.append(
                    LintRow(
                        LintCode.posterIncomplete, path: problem.path, before: LintRow.missing,
                        after: "artwork.png, artwork@2x.png, artwork@3x.png (or background.png)",
                        change: "Apple's validator signs the pass, and the poster shows your art"))
            case PassProblemCode.semanticsRecommended, PassProblemCode.semanticBoardingFallback:
                let tag = String(problem.path.dropFirst("semantics.".count))
                let required = problem.code == PassProblemCode.semanticBoardingFallback
                rows.append(
                    LintRow(
                        isBoarding ? LintCode.boardingIncomplete : LintCode.posterIncomplete, path: problem.path,
                        before: LintRow.missing, after: "\"semantics\": {\"\(tag)\": \(examples[tag] ?? "…")}",
                        change: required
                            ? "iOS 26+ shows the semantic boarding pass (live flight details) instead of the classic "
                                + "one, and Apple's validator signs it"
                            : recommendedChanges[tag] ?? "Apple's validator stops recommending it"))
            case PassProblemCode.numberFormatConflict:
                rows.append(
                    LintRow(
                        LintCode.numberFormatConflict, path: problem.path,
                        before: "both \"currencyCode\" and \"numberStyle\"",
                        after: "\"currencyCode\" alone (remove \"numberStyle\")",
                        change: "The amount is formatted one documented way, as money in its currency"))
            default:
                continue
            }
        }
    }
}
