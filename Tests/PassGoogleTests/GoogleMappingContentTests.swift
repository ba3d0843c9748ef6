import Foundation
import PassGoogle
import PassMintTestSupport
import PassModel
import Testing

/// What the mapping does with the parts of a pass every kind shares: barcodes, google.json, translations,
/// dates and the voided state.
@Suite("Google mapping: barcodes, google.json, translations, dates, state")
struct GoogleMappingContentTests {
    static func storeCard(_ extra: [String: JSONValue] = [:]) -> JSONValue {
        var pass: [String: JSONValue] = [
            "storeCard": [
                "primaryFields": [["key": "points", "label": "POINTS", "value": "{{points}}"]],
                "secondaryFields": [["key": "member", "label": "MEMBER", "value": "{{name}}"]],
            ]
        ]
        for (key, value) in extra { pass[key] = value }
        return MappedTemplate.passJSON(pass)
    }

    struct BarcodeCase: Sendable, CustomStringConvertible {
        let format: String
        let message: String
        /// Google's type, nil when Google cannot draw it (a gap, and the text alone).
        let google: String?
        var description: String { "\(format) \(message)" }
    }

    static let barcodes: [BarcodeCase] = [
        BarcodeCase(format: "PKBarcodeFormatQR", message: "PMC-42", google: "QR_CODE"),
        BarcodeCase(format: "PKBarcodeFormatPDF417", message: "PMC-42", google: "PDF_417"),
        BarcodeCase(format: "PKBarcodeFormatAztec", message: "PMC-42", google: "AZTEC"),
        BarcodeCase(format: "PKBarcodeFormatCode128", message: "PMC-42", google: "CODE_128"),
        BarcodeCase(format: "PKBarcodeFormatEAN13", message: "2000100000021", google: "EAN_13"),
        BarcodeCase(format: "PKBarcodeFormatCode39", message: "PMC42", google: "CODE_39"),
        BarcodeCase(format: "PKBarcodeFormatCodabar", message: "A12345B", google: "CODABAR"),
        BarcodeCase(format: "PKBarcodeFormatI2of5", message: "12345678901231", google: "ITF_14"),
        BarcodeCase(format: "PKBarcodeFormatI2of5", message: "123456", google: nil),
    ]

    @Test("each barcode format to Google's type, altText to alternateText", arguments: barcodes)
    func barcode(_ c: BarcodeCase) throws {
        let pass = Self.storeCard([
            "barcodes": [
                [
                    "format": .string(c.format), "message": .string(c.message), "messageEncoding": "iso-8859-1",
                    "altText": "No. {{name}}",
                ]
            ]
        ])
        let mapped = try MappedTemplate(pass).map(["name": "Ada", "points": "7"])
        let barcode = try #require(mapped.objectJSON["barcode"])
        #expect(barcode["value"]?.stringValue == c.message)
        if let google = c.google {
            #expect(barcode["type"]?.stringValue == google)
            #expect(barcode["alternateText"]?.stringValue == "No. Ada")
            #expect(!mapped.gaps.contains { $0.path == "barcodes[0]" })
        } else {
            #expect(barcode["type"]?.stringValue == "TEXT_ONLY")
            #expect(mapped.gaps.contains { $0.path == "barcodes[0]" && $0.reason == .barcodeFormat(c.format) })
        }
    }

    @Test("the first barcode Google can draw is the one; the others are gaps")
    func barcodeChoice() throws {
        let pass = Self.storeCard([
            "barcodes": [
                ["format": "PKBarcodeFormatI2of5", "message": "123", "messageEncoding": "iso-8859-1"],
                ["format": "PKBarcodeFormatQR", "message": "{{name}}", "messageEncoding": "iso-8859-1"],
                ["format": "PKBarcodeFormatAztec", "message": "X", "messageEncoding": "iso-8859-1"],
            ]
        ])
        let mapped = try MappedTemplate(pass).map(["name": "Ada", "points": "7"])
        #expect(mapped.objectJSON["barcode"]?["type"]?.stringValue == "QR_CODE")
        #expect(mapped.objectJSON["barcode"]?["value"]?.stringValue == "Ada")
        #expect(
            mapped.gaps.contains { $0.path == "barcodes[0]" && $0.reason == .barcodeFormat("PKBarcodeFormatI2of5") })
        #expect(mapped.gaps.contains { $0.path == "barcodes[2]" && $0.reason == .extraBarcode })
    }

    @Test("google.json adds and overrides members with the record's values, merges objects, and null removes")
    func overrides() throws {
        let google: JSONValue = [
            "class": [
                "programName": "Club {{name}}",  // replaces the mapped value
                "countryCode": "CH",  // adds a member
                "hexBackgroundColor": .null,  // removes the mapped colour
            ],
            "object": [
                "accountId": "M-{{name}}",
                "barcode": ["alternateText": "shown below"],  // merged into the mapped barcode
                "textModulesData": .null,
            ],
        ]
        let pass = Self.storeCard([
            "backgroundColor": "rgb(10, 20, 30)",
            "barcodes": [["format": "PKBarcodeFormatQR", "message": "{{name}}", "messageEncoding": "iso-8859-1"]],
        ])
        let plain = try MappedTemplate(pass).map(["name": "Ada", "points": "7"])
        #expect(plain.classJSON["hexBackgroundColor"]?.stringValue == "#0a141e")
        #expect(plain.classJSON["programName"]?.stringValue == "PassMint Unit Tests")
        #expect(plain.objectJSON["textModulesData"] != nil)

        let mapped = try MappedTemplate(pass, google: google).map(["name": "Ada", "points": "7"])
        #expect(mapped.classJSON["programName"]?.stringValue == "Club Ada")
        #expect(mapped.classJSON["countryCode"]?.stringValue == "CH")
        #expect(mapped.classJSON["hexBackgroundColor"] == nil)
        #expect(mapped.objectJSON["accountId"]?.stringValue == "M-Ada")
        #expect(mapped.objectJSON["barcode"]?["type"]?.stringValue == "QR_CODE")
        #expect(mapped.objectJSON["barcode"]?["alternateText"]?.stringValue == "shown below")
        #expect(mapped.objectJSON["textModulesData"] == nil)
        #expect(mapped.classID != plain.classID, "another class, another ID")
    }

    @Test("google.json's kind sends a pass to another kind; a kind Google has not is refused naming the file")
    func overrideKind() throws {
        let pass = MappedTemplate.passJSON([
            "generic": ["primaryFields": [["key": "member", "label": "MEMBER", "value": "{{name}}"]]]
        ])
        let loyal = try MappedTemplate(pass, google: ["kind": "loyalty"]).map(["name": "Ada"])
        #expect(loyal.kind == .loyalty)
        #expect(loyal.objectJSON["accountName"]?.stringValue == "Ada")
        #expect {
            try MappedTemplate(pass, google: ["kind": "boardingPass"]).map(["name": "Ada"])
        } throws: { error in
            guard case .invalidOverride(let file, let path, _) = error as? GoogleError else { return false }
            return file == "/templates/unit-test/google.json" && path == "kind"
        }
    }

    @Test(".lproj strings become translatedValues of labels and values")
    func translations() throws {
        func strings(_ pairs: [(String, String)]) -> [UInt8] {
            let text = pairs.map { "\"\($0.0)\" = \"\($0.1)\";\n" }.joined()
            return [0xFF, 0xFE] + Array(text.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        }
        let pass = Self.storeCard([
            "storeCard": [
                "primaryFields": [["key": "points", "label": "POINTS", "value": "{{points}}"]],
                "secondaryFields": [["key": "level", "label": "LEVEL", "value": "{{level}}"]],
                "backFields": [["key": "terms", "label": "TERMS", "value": "TERMS_TEXT"]],
            ]
        ])
        let files: [String: [UInt8]] = [
            "de.lproj/pass.strings": strings([
                ("POINTS", "PUNKTE"), ("LEVEL", "STUFE"), ("TERMS", "BEDINGUNGEN"), ("TERMS_TEXT", "Es gilt."),
            ]),
            "fr.lproj/pass.strings": strings([("TERMS", "CONDITIONS")]),
            "en.lproj/pass.strings": strings([("TERMS_TEXT", "Terms apply.")]),
        ]
        let fields: JSONValue = [
            "fields": [["name": "points", "type": "integer"], ["name": "level", "type": "string"]]
        ]
        let mapped = try MappedTemplate(pass, templateJSON: fields, files: files).map(["points": "7", "level": "Gold"])
        let points = try #require(mapped.objectJSON["loyaltyPoints"])
        #expect(points["label"]?.stringValue == "POINTS")
        #expect(points["localizedLabel"] == ["translatedValues": [["language": "de", "value": "PUNKTE"]]])
        let modules =
            (mapped.classJSON["textModulesData"]?.arrayValue ?? [])
            + (mapped.objectJSON["textModulesData"]?.arrayValue ?? [])
        let terms = try #require(modules.first { $0["id"]?.stringValue == "terms" })
        #expect(
            terms["localizedHeader"]
                == [
                    "translatedValues": [
                        ["language": "de", "value": "BEDINGUNGEN"], ["language": "fr", "value": "CONDITIONS"],
                    ]
                ]
        )
        #expect(terms["localizedBody"]?.text.contains("\"language\":\"de\",\"value\":\"Es gilt.\"") == true)
    }

    @Test("relevantDates and expirationDate become validTimeInterval")
    func validity() throws {
        let pass = Self.storeCard([
            "relevantDates": [
                ["startDate": "2027-05-02T10:00:00+02:00", "endDate": "2027-05-02T12:00:00+02:00"],
                ["startDate": "2027-05-01T09:00:00+02:00", "endDate": "2027-05-01T11:00:00+02:00"],
            ]
        ])
        let ranged = try MappedTemplate(pass).map(["name": "Ada", "points": "7"])
        #expect(
            ranged.objectJSON["validTimeInterval"]
                == [
                    "start": ["date": "2027-05-01T09:00:00+02:00"], "end": ["date": "2027-05-02T12:00:00+02:00"],
                ])
        let expiring = try MappedTemplate(
            Self.storeCard([
                "relevantDates": [["startDate": "2027-05-01T09:00:00+02:00"]],
                "expirationDate": "2027-12-31T23:59:00-05:00",
            ])
        ).map(["name": "Ada", "points": "7"])
        #expect(
            expiring.objectJSON["validTimeInterval"]
                == ["start": ["date": "2027-05-01T09:00:00+02:00"], "end": ["date": "2027-12-31T23:59:00-05:00"]])
        let undated = try MappedTemplate(Self.storeCard()).map(["name": "Ada", "points": "7"])
        #expect(undated.objectJSON["validTimeInterval"] == nil)
    }

    @Test("a voided pass is INACTIVE, any other ACTIVE")
    func voided() throws {
        let template = try MappedTemplate(Self.storeCard())
        #expect(try template.map(["name": "Ada", "points": "7"]).objectJSON["state"] == "ACTIVE")
        #expect(try template.map(["name": "Ada", "points": "7"], voided: true).objectJSON["state"] == "INACTIVE")
    }

    @Test("locations and featured actions: merchantLocations and the links module")
    func locationsAndLinks() throws {
        let mapped = try MappedTemplate(
            Self.storeCard([
                "locations": [["latitude": 47.3769, "longitude": 8.5417, "relevantText": "Nearby"]],
                "featuredActions": [
                    ["identifier": "offers", "type": "viewOffersRewards", "url": "https://example.com/offers"]
                ],
            ])
        ).map(["name": "Ada", "points": "7"])
        #expect(
            mapped.classJSON["merchantLocations"] == [["latitude": .double(47.3769), "longitude": .double(8.5417)]])
        #expect(
            mapped.classJSON["linksModuleData"]
                == ["uris": [["uri": "https://example.com/offers", "description": "Offers & rewards", "id": "offers"]]])
        #expect(mapped.gaps.contains { $0.path == "locations[0].relevantText" && $0.reason == .noCounterpart })
    }

    @Test("a class Google requires a field of, without one, is refused naming the JSON path")
    func requiredField() throws {
        let pass = Self.storeCard()
        #expect {
            try MappedTemplate(pass, logo: false).map(["name": "Ada", "points": "7"])
        } throws: { error in
            guard case .requiredFieldMissing(let path, _) = error as? GoogleError else { return false }
            return path == "loyaltyClasses[0].programLogo"
        }
    }
}
