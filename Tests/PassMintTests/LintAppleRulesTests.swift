import Foundation
import PassModel
import Testing

@testable import PassMint

/// `lint` rows for the rules of Apple's validator (AppleLayoutRule).
@Suite("Lint: Apple's validator rules")
struct LintAppleRulesTests {
    typealias S = PreviewTestSupport

    static let posterTop = """
        "preferredStyleSchemes": ["posterEventTicket", "eventTicket"],
        "semantics": {"eventName": "Gig", "venueName": "Hall", "venueRegionName": "Berlin", "venueRoom": "Main",
                      "eventStartDate": "2027-06-12T19:30:00+02:00", "seats": [{"seatNumber": "1"}]},
        "relevantDates": [{"date": "2027-06-12T19:30:00+02:00"}]
        """

    @Test("a poster event ticket: NFC, requiresAuthentication and poster art rows, each with the exact fix")
    func posterTicket() throws {
        let fields = "\"primaryFields\": [{\"key\": \"e\", \"value\": \"Gig\"}]"
        let bare = PassLinter.lint(try S.source(S.pass(style: "eventTicket", top: Self.posterTop, fields: fields)))
            .filter { $0.code == LintCode.posterIncomplete }
        #expect(bare.map(\.path) == ["nfc", "artwork.png"], "\(bare)")
        #expect(bare.first?.after.contains("\"requiresAuthentication\": true") == true)
        #expect(bare.first?.change.contains("Apple's validator signs the pass") == true)

        let nfc = "\"nfc\": {\"message\": \"T-1\", \"encryptionPublicKey\": \"QUJD\"}"
        let art: [String: [UInt8]] = ["background.png": VerifyTestSupport.png(180, 220)]
        let rows = PassLinter.lint(
            try S.source(S.pass(style: "eventTicket", top: Self.posterTop + ", " + nfc, fields: fields), files: art)
        ).filter { $0.code == LintCode.posterIncomplete }
        #expect(rows.map(\.path) == ["nfc.requiresAuthentication"], "\(rows)")
        #expect(rows.first?.after == "\"requiresAuthentication\": true")
    }

    @Test("a semantic boarding pass: boarding.incomplete rows with an example value for each missing tag")
    func semanticBoardingPass() throws {
        let json = S.pass(
            style: "boardingPass",
            top: """
                "preferredStyleSchemes": ["semanticBoardingPass", "boardingPass"],
                "semantics": {"airlineCode": "EX", "flightNumber": 123, "departureAirportCode": "BER",
                              "destinationAirportCode": "LHR", "originalDepartureDate": "2027-06-12T09:40:00+02:00",
                              "originalBoardingDate": "2027-06-12T09:05:00+02:00",
                              "originalArrivalDate": "2027-06-12T11:55:00+01:00",
                              "passengerName": {"givenName": "Ada", "familyName": "Lovelace"},
                              "departureCityName": "Berlin", "destinationCityName": "London",
                              "seats": [{"seatNumber": "14A"}]},
                "relevantDates": [{"date": "2027-06-12T09:05:00+02:00"}]
                """,
            fields:
                "\"transitType\": \"PKTransitTypeAir\", \"primaryFields\": [{\"key\": \"from\", \"value\": \"BER\"}]")
        let rows = PassLinter.lint(try S.source(json)).filter { $0.code == LintCode.boardingIncomplete }
        #expect(
            rows.map(\.path) == ["semantics.departureAirportTimeZone", "semantics.destinationAirportTimeZone"],
            "\(rows)")
        #expect(rows.first?.after == "\"semantics\": {\"departureAirportTimeZone\": \"Europe/Berlin\"}")
        #expect(rows.first?.change.contains("semantic boarding pass") == true)
        #expect(rows.last?.change == "Arrival times show in the destination's time")
    }

    @Test("currencyCode with numberStyle: one row asking to keep currencyCode alone")
    func numberFormat() throws {
        let json = S.pass(
            fields:
                "\"primaryFields\": [{\"key\": \"b\", \"label\": \"BALANCE\", \"value\": 12.5, \"currencyCode\": \"EUR\", \"numberStyle\": \"PKNumberStyleDecimal\"}]"
        )
        let rows = PassLinter.lint(try S.source(json)).filter { $0.code == LintCode.numberFormatConflict }
        #expect(rows.map(\.path) == ["storeCard.primaryFields[0].numberStyle"], "\(rows)")
        #expect(rows.first?.after.contains("currencyCode") == true)
    }
}
