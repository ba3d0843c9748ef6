import Testing

@testable import PassModel

@Suite("Pass: lenient reading, strict writing")
struct PassTests {
    @Test("typed access to style, fields and keys")
    func typedAccess() throws {
        let pass = try Pass(json: Sample.storeCard)
        #expect(pass.style == .storeCard)
        #expect(pass.styles == [.storeCard])
        #expect(pass.formatVersion == 1)
        #expect(pass.serialNumber == "A1B2C3D4E5F6")
        #expect(pass.backgroundColor == .rgb(red: 60, green: 65, blue: 76))
        #expect(pass.barcodes?.first?.format == .qr)
        #expect(
            pass.fields.map(\.path) == [
                "storeCard.primaryFields[0]", "storeCard.secondaryFields[0]", "storeCard.backFields[0]",
            ])
        #expect(pass.fields.map(\.group) == [.primaryFields, .secondaryFields, .backFields])
        #expect(pass.field(forKey: "balance")?.value == .double(21.75))
        #expect(pass.field(forKey: "balance")?.currencyCode == "USD")
        #expect(pass.structure?.primaryFields?.count == 1)
        #expect(!pass.prefersPosterEventTicket)
        #expect(pass.jsonValue == Sample.storeCard)
    }

    @Test("unknown keys are kept verbatim at the top level, in style dictionaries, fields, barcodes and nfc")
    func unknownKeys() throws {
        var json = Sample.storeCard
        json.set("x-top", ["nested": [1, 2, "three"]])
        json.set("storeCard.x-style", true)
        json.set("storeCard.primaryFields[0].x-field", "kept")
        json.set("barcodes[0].x-barcode", 7)
        json.set("nfc", ["message": "m", "encryptionPublicKey": "QUJD", "x-nfc": .null])
        json.set("locations[0]", ["latitude": 1, "longitude": 2, "x-loc": "l"])
        json.set("beacons[0]", ["proximityUUID": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "x-beacon": "b"])
        json.set("relevantDates[0]", ["date": "2026-07-22T14:00Z", "x-date": "d"])
        let pass = try Pass(json: json)
        #expect(
            pass.unknownKeyPaths == [
                "barcodes[0].x-barcode", "beacons[0].x-beacon", "locations[0].x-loc", "nfc.x-nfc",
                "relevantDates[0].x-date", "storeCard.primaryFields[0].x-field", "storeCard.x-style", "x-top",
            ])
        #expect(pass.unknownKeys["x-top"] == ["nested": [1, 2, "three"]])
        #expect(pass.storeCard?.primaryFields?[0].unknownKeys["x-field"] == "kept")
        #expect(pass.jsonValue == json)
        let problems = PassValidator.validate(json)
        #expect(Set(problems.filter { $0.code == PassProblemCode.unknownKey }.map(\.path)) == Set(pass.unknownKeyPaths))
        #expect(problems.filter { $0.code == PassProblemCode.unknownKey }.allSatisfy { $0.severity == .warning })
    }

    @Test("#rrggbb and compact rgb() are written as rgb(r, g, b); an unreadable colour is kept as written")
    func colours() throws {
        var json = Sample.storeCard
        json.set("backgroundColor", "#12345a")
        json.set("foregroundColor", "rgb(1,2,3)")
        json.set("labelColor", "#fff")
        json.set("footerBackgroundColor", "not a colour")
        let (pass, normalized) = try Pass.parse(json)
        #expect(pass.jsonValue["backgroundColor"] == "rgb(18, 52, 90)")
        #expect(pass.jsonValue["foregroundColor"] == "rgb(1, 2, 3)")
        #expect(pass.jsonValue["labelColor"] == "rgb(255, 255, 255)")
        #expect(pass.jsonValue["footerBackgroundColor"] == "not a colour")
        #expect(normalized == ["backgroundColor", "foregroundColor", "labelColor"])
        let text = String(decoding: pass.jsonBytes(), as: UTF8.self)
        #expect(text.contains(#""backgroundColor": "rgb(18, 52, 90)""#))
    }

    @Test(
        "harmless mismatches are converted: numbers as strings, integer identifiers, string booleans, a lone barcode object"
    )
    func coercions() throws {
        var json = Sample.storeCard
        json.set("formatVersion", "1")
        json.set("serialNumber", 12345)
        json.set("maxDistance", "150.5")
        json.set("voided", "false")
        json.set("sharingProhibited", 1)
        json.set("barcodes", ["format": "PKBarcodeFormatQR", "message": "A1B2", "messageEncoding": "iso-8859-1"])
        json.set("beacons", [["proximityUUID": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "major": "7"]])
        let (pass, normalized) = try Pass.parse(json)
        #expect(pass.formatVersion == 1)
        #expect(pass.serialNumber == "12345")
        #expect(pass.maxDistance == 150.5)
        #expect(pass.voided == false)
        #expect(pass.sharingProhibited == true)
        #expect(pass.barcodes?.count == 1)
        #expect(pass.beacons?.first?.major == 7)
        #expect(
            normalized == [
                "barcodes", "beacons[0].major", "formatVersion", "maxDistance", "serialNumber", "sharingProhibited",
                "voided",
            ])
        let out = pass.jsonValue
        #expect(out["formatVersion"] == 1)
        #expect(out["serialNumber"] == "12345")
        #expect(out["voided"] == false)
        #expect(out["barcodes"]?.arrayValue?.count == 1)
        #expect(PassValidator.validate(out).filter(\.isError).isEmpty)
    }

    @Test(
        "values that cannot be represented throw with their JSON path",
        arguments: [
            ("", JSONValue.array([]), "", "an object"),
            ("storeCard", .array([]), "storeCard", "an object"),
            ("storeCard.primaryFields", .object([:]), "storeCard.primaryFields", "an array"),
            ("storeCard.primaryFields[0].value", .bool(true), "storeCard.primaryFields[0].value", "a string, a number"),
            ("voided", .string("maybe"), "voided", "true or false"),
            (
                "locations", .array([.object(["latitude": "north", "longitude": 1])]), "locations[0].latitude",
                "a number"
            ),
            ("barcodes", .string("QR"), "barcodes", "an array"),
            ("associatedStoreIdentifiers", .array([.string("abc")]), "associatedStoreIdentifiers[0]", "a whole number"),
            ("backgroundColor", .integer(255), "backgroundColor", "a colour string"),
        ])
    func unrepresentable(path: String, value: JSONValue, errorPath: String, expected: String) {
        var json = Sample.storeCard
        if path.isEmpty { json = value } else { json.set(path, value) }
        #expect {
            _ = try Pass(json: json)
        } throws: { error in
            guard let e = error as? PassModelError, case .wrongType(let p, let exp, _) = e else { return false }
            return p == errorPath && exp.contains(expected)
                && e.description.contains(errorPath.isEmpty ? "top level" : errorPath)
        }
    }

    @Test("every key of wallet-spec §1–2 survives a round trip")
    func everyKey() throws {
        var json = Sample.eventTicket
        let extra: [String: JSONValue] = [
            "logoText": "Logo", "foregroundColor": "rgb(1, 2, 3)", "labelColor": "rgb(4, 5, 6)",
            "stripColor": "rgb(7, 8, 9)", "suppressStripShine": true,
            "barcode": [
                "format": "PKBarcodeFormatPDF417", "message": "m", "messageEncoding": "utf-8", "altText": "alt",
            ],
            "locations": [["latitude": 37.5, "longitude": -122, "altitude": 10, "relevantText": "Near"]],
            "beacons": [
                ["proximityUUID": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "major": 1, "minor": 2, "relevantText": "b"]
            ],
            "maxDistance": 100, "relevantDate": "2026-07-22T14:25-08:00",
            "relevantDates": [
                ["startDate": "2026-07-22T14:00Z", "endDate": "2026-07-22T18:00Z"],
                ["date": "2026-07-23T10:00Z", "relevantDate": "2026-07-23T10:00Z"],
            ],
            "expirationDate": "2026-08-01T00:00Z", "voided": false, "sharingProhibited": true,
            "groupingIdentifier": "tour", "userInfo": ["any": ["json", 1, .null]],
            "associatedStoreIdentifiers": [284_882_215], "appLaunchURL": "myapp://x",
            "webServiceURL": "https://example.com/passes/", "authenticationToken": "0123456789abcdef0123",
            "nfc": ["message": "hello", "encryptionPublicKey": "QUJDRA==", "requiresAuthentication": true],
            "semantics": [
                "eventName": "Concert", "seats": [["seatNumber": "1"]], "eventType": "PKEventTypeLivePerformance",
            ],
            "preferredStyleSchemes": ["posterEventTicket", "eventTicket"], "eventLogoText": "Poster",
            "footerBackgroundColor": "rgb(10, 11, 12)", "useAutomaticColors": true, "suppressHeaderDarkening": false,
            "auxiliaryStoreIdentifiers": [1, 2],
            "accessibilityURL": "https://a", "addOnURL": "https://b", "bagPolicyURL": "https://c",
            "contactVenueEmail": "v@example.com", "contactVenuePhoneNumber": "+1 555",
            "contactVenueWebsite": "https://d",
            "directionsInformationURL": "https://e", "merchandiseURL": "https://f", "orderFoodURL": "https://g",
            "parkingInformationURL": "https://h", "purchaseParkingURL": "https://i", "sellURL": "https://j",
            "transferURL": "https://k", "transitInformationURL": "https://l",
            "upcomingPassInformation": [["identifier": "u1"]], "changeSeatURL": "https://m",
            "trackBagsURL": "https://n",
            "transitProviderEmail": "t@example.com",
        ]
        for (k, v) in extra { json.set(k, v) }
        json.set(
            "eventTicket.auxiliaryFields[0]",
            [
                "key": "doors", "label": "Doors", "value": "2026-07-22T18:00-07:00",
                "attributedValue": "<a href='x'>x</a>",
                "changeMessage": "Doors now %@", "textAlignment": "PKTextAlignmentRight",
                "dateStyle": "PKDateStyleShort",
                "timeStyle": "PKDateStyleShort", "isRelative": true, "ignoresTimeZone": true, "row": 1,
                "semantics": ["venueDoorsOpenDate": "2026-07-22T18:00-07:00"],
            ])
        json.set(
            "eventTicket.backFields[0]",
            [
                "key": "pts", "value": 1200, "numberStyle": "PKNumberStyleDecimal",
                "dataDetectorTypes": ["PKDataDetectorTypeLink"],
            ])
        json.set("eventTicket.additionalInfoFields[0]", ["key": "info", "value": "More"])
        let pass = try Pass(json: json)
        #expect(pass.unknownKeyPaths.isEmpty, "\(pass.unknownKeyPaths)")
        #expect(pass.jsonValue == json)
        #expect(pass.prefersPosterEventTicket)
        #expect(pass.semantics?.eventType == .livePerformance)
        #expect(pass.eventTicket?.auxiliaryFields?[0].row == 1)
        #expect(pass.eventTicket?.auxiliaryFields?[0].value?.date?.hour == 18)
        #expect(pass.relevantDates?.count == 2)
        #expect(pass.fields.last?.group == .additionalInfoFields)
        // Valid apart from the poster tags this sample leaves out (Wallet's, and the two Apple's validator
        // recommends).
        let problems = PassValidator.validate(json)
        for p in problems { print("every key: \(p)") }
        #expect(problems.filter(\.isError).isEmpty)
        #expect(
            Set(problems.map(\.path)) == [
                "semantics.venueName", "semantics.venueRegionName", "semantics.venueRoom", "semantics.performerNames",
                "semantics.eventStartDate", "semantics.artistIDs",
            ])
    }

    @Test("a pass built in code writes strict JSON that validates")
    func buildInCode() throws {
        var pass = Pass()
        pass.passTypeIdentifier = "pass.com.example.event"
        pass.serialNumber = "E-0001-XYZ"
        pass.teamIdentifier = "ABCDE12345"
        pass.organizationName = "Example Events"
        pass.description = "Concert ticket"
        pass.backgroundColor = PassColorValue(parsing: "#203040")
        var s = PassStructure()
        s.primaryFields = [PassField(key: "event", value: "Concert", label: "EVENT")]
        s.auxiliaryFields = [PassField(key: "gate", value: 4, label: "GATE", changeMessage: "Gate now %@")]
        pass.eventTicket = s
        pass.barcodes = [PassBarcode(format: .qr, message: "E-0001-XYZ")]
        pass.relevantDates = [PassRelevantDate(date: "2026-07-22T18:00Z")]
        let json = pass.jsonValue
        #expect(json["backgroundColor"] == "rgb(32, 48, 64)")
        #expect(json["eventTicket"]?["auxiliaryFields"]?.arrayValue?.first?["value"] == 4)
        #expect(
            json["relevantDates"]?.arrayValue?.first == [
                "date": "2026-07-22T18:00Z", "relevantDate": "2026-07-22T18:00Z",
            ])
        #expect(PassValidator.validate(json).isEmpty)
        #expect(try Pass(json: json) == pass)
        #expect(pass.validate().isEmpty)
        pass.voided = nil
        pass.eventTicket?.primaryFields = nil
        pass.eventTicket?.auxiliaryFields?[0].currencyCode = "EUR"
        #expect(pass.validate().isEmpty)
        pass.eventTicket?.auxiliaryFields?[0].value = "four"
        #expect(pass.validate().map(\.path) == ["eventTicket.auxiliaryFields[0].currencyCode"])
        #expect(try Pass(json: json) != pass)
    }

    @Test("style and group accessors read and write the right dictionary")
    func accessors() throws {
        var pass = try Pass(json: Sample.storeCard)
        pass.structure?[.headerFields] = [PassField(key: "tier", value: "Gold", changeMessage: "Now %@")]
        #expect(pass.storeCard?.headerFields?.first?.key == "tier")
        #expect(pass.fields.first?.path == "storeCard.headerFields[0]")
        pass[.storeCard] = nil
        #expect(pass.style == nil)
        pass.structure = PassStructure()
        #expect(pass.style == nil)
        pass.generic = PassStructure()
        pass.coupon = PassStructure()
        #expect(pass.styles == [.coupon, .generic])
        #expect(pass.style == .coupon)
        #expect(pass.validate().contains { $0.code == PassProblemCode.noStyle && $0.path == "generic" })
    }

    @Test("PassModelError says where and what to write")
    func errorText() {
        let e = PassModelError.wrongType(path: "storeCard.primaryFields", expected: "an array [ … ]", found: "object")
        #expect(e.path == "storeCard.primaryFields")
        #expect(
            e.description
                == "pass.json storeCard.primaryFields is an object; write an array [ … ] there"
        )
        let top = PassModelError.wrongType(path: "", expected: "an object { … }", found: "array")
        #expect(top.description.hasPrefix("the top level of pass.json is an array"))
    }
}
