import Foundation
import PassGoogle
import PassMintTestSupport
import PassModel
import Testing

/// Every Apple style to its Google kind, with the member's values in the object's own slots.
@Suite("Google mapping: each style to its kind")
struct GoogleMappingStyleTests {
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let pass: [String: JSONValue]
        let record: [String: String]
        let kind: GoogleKind
        /// The style the mapping fell back from (a `styleFallback` gap on it), nil when none.
        let fellBack: String?
        /// Texts that must be in the object (JSON as printed, keys sorted).
        let objectHas: [String]
        let classHas: [String]
        var templateJSON: JSONValue? = nil
        var description: String { name }
    }

    static let member: JSONValue = ["key": "member", "label": "MEMBER", "value": "{{name}}"]

    static let cases: [Case] = [
        Case(
            name: "storeCard → loyalty",
            pass: [
                "storeCard": [
                    "headerFields": [["key": "tier", "label": "TIER", "value": "{{tier}}"]],
                    "primaryFields": [["key": "points", "label": "POINTS", "value": "{{points}}"]],
                    "secondaryFields": [member],
                ]
            ], record: ["name": "Ada Lovelace", "points": "4200", "tier": "Gold"], kind: .loyalty, fellBack: nil,
            objectHas: ["\"accountName\":\"Ada Lovelace\"", "\"loyaltyPoints\":", "\"body\":\"Gold\""],
            classHas: ["\"programName\":\"PassMint Unit Tests\"", "\"rewardsTier\":\"Gold\"", "\"programLogo\""],
            templateJSON: [
                "fields": [
                    ["name": "name", "type": "string"], ["name": "points", "type": "integer"],
                    ["name": "tier", "type": "enum", "values": ["Silver", "Gold"]],
                ],
                "tiers": [
                    "field": "tier",
                    "values": [
                        "Silver": ["pass": ["backgroundColor": "rgb(84, 92, 104)"]],
                        "Gold": ["pass": ["backgroundColor": "rgb(120, 88, 18)"]],
                    ],
                ],
            ]),
        Case(
            name: "eventTicket → eventTicket",
            pass: [
                "semantics": ["eventName": "Symphony No. 9", "venueName": "Hall One"],
                "eventTicket": [
                    "primaryFields": [["key": "attendee", "label": "ATTENDEE", "value": "{{name}}"]],
                    "secondaryFields": [
                        ["key": "seat", "label": "SEAT", "value": "{{seat}}"],
                        ["key": "row", "label": "ROW", "value": "{{row}}"],
                    ],
                ],
            ], record: ["name": "Ada Lovelace", "seat": "22", "row": "K"], kind: .eventTicket, fellBack: nil,
            objectHas: [
                "\"ticketHolderName\":\"Ada Lovelace\"", "\"seatInfo\":", "\"value\":\"22\"", "\"value\":\"K\"",
            ],
            classHas: ["\"eventName\":", "Symphony No. 9", "Hall One"]),
        Case(
            name: "generic → generic",
            pass: ["generic": ["primaryFields": [["key": "name", "label": "NAME", "value": "{{name}}"]]]],
            record: ["name": "Ada Lovelace"], kind: .generic, fellBack: nil,
            objectHas: ["\"cardTitle\":", "\"header\":", "Ada Lovelace"], classHas: []),
        Case(
            name: "posterGeneric → generic",
            pass: ["posterGeneric": ["primaryFields": [["key": "name", "label": "NAME", "value": "{{name}}"]]]],
            record: ["name": "Ada Lovelace"], kind: .generic, fellBack: nil,
            objectHas: ["\"header\":", "Ada Lovelace"], classHas: []),
        Case(
            name: "posterGeneric with a storeCard fallback → loyalty",
            pass: [
                "posterGeneric": ["primaryFields": [member]],
                "storeCard": ["primaryFields": [member]],
            ], record: ["name": "Ada Lovelace"], kind: .loyalty, fellBack: nil,
            objectHas: ["\"accountName\":\"Ada Lovelace\""], classHas: ["\"programName\""]),
        Case(
            name: "coupon → offer",
            pass: [
                "barcodes": [["format": "PKBarcodeFormatQR", "message": "{{code}}", "messageEncoding": "iso-8859-1"]],
                "coupon": ["primaryFields": [["key": "offer", "label": "SAVE", "value": "20%"]]],
            ], record: ["code": "OFFER-123"], kind: .offer, fellBack: nil,
            objectHas: ["\"value\":\"OFFER-123\""],
            classHas: ["\"title\":\"SAVE 20%\"", "\"redemptionChannel\":\"INSTORE\"", "\"provider\""]),
        Case(
            name: "boardingPass (air, with the flight's semantics) → flight",
            pass: [
                "semantics": [
                    "airlineCode": "LX", "flightNumber": "318", "departureAirportCode": "ZRH",
                    "destinationAirportCode": "LHR", "originalDepartureDate": "2027-03-01T07:40:00+01:00",
                    "passengerName": ["givenName": "{{name}}", "familyName": "Lovelace"],
                    "confirmationNumber": "K7Q2PZ",
                ],
                "boardingPass": ["transitType": "PKTransitTypeAir", "primaryFields": []],
            ], record: ["name": "Ada"], kind: .flight, fellBack: nil,
            objectHas: ["\"passengerName\":\"Ada Lovelace\"", "\"confirmationCode\":\"K7Q2PZ\""],
            classHas: ["\"carrierIataCode\":\"LX\"", "\"airportIataCode\":\"ZRH\"", "2027-03-01T07:40:00"]),
        Case(
            name: "boardingPass (train) → transit",
            pass: [
                "semantics": [
                    "departureStationName": "Zürich HB", "destinationStationName": "Bern",
                    "passengerName": ["givenName": "{{name}}", "familyName": "Lovelace"],
                ],
                "boardingPass": ["transitType": "PKTransitTypeTrain", "primaryFields": []],
            ], record: ["name": "Ada"], kind: .transit, fellBack: nil,
            objectHas: ["\"passengerNames\":\"Ada Lovelace\"", "Zürich HB", "Bern", "\"tripType\":\"ONE_WAY\""],
            classHas: ["\"transitType\":\"RAIL\"", "\"logo\""]),
        Case(
            name: "boardingPass (air, no flight semantics) → generic with a warning",
            pass: [
                "boardingPass": [
                    "transitType": "PKTransitTypeAir",
                    "primaryFields": [["key": "from", "label": "FROM", "value": "{{from}}"]],
                ]
            ], record: ["from": "ZRH"], kind: .generic, fellBack: "boardingPass",
            objectHas: ["\"header\":", "ZRH"], classHas: []),
    ]

    @Test("the style's kind, its slots, and a fallback said as a gap", arguments: cases)
    func style(_ c: Case) throws {
        let mapped = try MappedTemplate(MappedTemplate.passJSON(c.pass), templateJSON: c.templateJSON).map(c.record)
        #expect(mapped.kind == c.kind)
        let fallbacks = mapped.gaps.filter {
            if case .styleFallback = $0.reason { return true }
            return false
        }
        #expect(fallbacks.map(\.path) == (c.fellBack.map { [$0] } ?? []))
        let object = mapped.objectJSON.text
        let klass = mapped.classJSON.text
        for expected in c.objectHas { #expect(object.contains(expected), "\(expected) in \(object)") }
        for expected in c.classHas { #expect(klass.contains(expected), "\(expected) in \(klass)") }
        #expect(mapped.objectJSON["classId"]?.stringValue == mapped.classID)
        #expect(mapped.objectID == "\(MappedTemplate.issuerID).SN-0001")
        #expect(mapped.classID.hasPrefix("\(MappedTemplate.issuerID).unit-test-"))
    }

    @Test(
        "each kind's class and object pass Google's schema (walletobjects.v1.json)",
        .enabled(if: GoogleWalletSupport.available, "needs /opt/passmint-pyenv (scripts/install-deps)"),
        arguments: cases)
    func schema(_ c: Case) throws {
        let mapped = try MappedTemplate(MappedTemplate.passJSON(c.pass), templateJSON: c.templateJSON).map(c.record)
        let dir = try TempDir()
        for (part, json) in [("class", mapped.classJSON), ("object", mapped.objectJSON)] {
            let check = try GoogleWalletSupport.checkResource(
                kind: mapped.kind.rawValue, part: part, json: Data(JSONWriter.serialize(json)), in: dir)
            #expect(check.ok, "\(c.name) \(part): \(check.errors)")
        }
    }
}
