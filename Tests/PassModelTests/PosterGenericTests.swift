import Testing

@testable import PassModel

@Suite("iOS 27: poster generic passes, featured actions, new keys")
struct PosterGenericTests {
    /// The poster sample with every iOS 27 key set, unknown keys inside an action included.
    static var everyIOS27Key: JSONValue {
        var json = Sample.posterGeneric
        json.set("logoSymbolName", "star.circle.fill")
        json.set(
            "featuredActions",
            [
                Sample.action("shop"),
                [
                    "identifier": "visit", "type": "place", "url": "https://maps.apple.com/?q=Cafe",
                    "placeIdentifier": "I6FD", "x-title": ["en": "Visit us"],
                ],
            ])
        json.set(
            "barcodes[0]",
            ["format": "PKBarcodeFormatEAN13", "message": "4006381333931", "messageEncoding": "iso-8859-1"])
        json.set("barcodes[1]", ["format": "PKBarcodeFormatQR", "message": "A1B2", "messageEncoding": "iso-8859-1"])
        return json
    }

    @Test("the iOS 27 keys round-trip: read, write strictly, read again equal; unknown keys in actions are kept")
    func roundTrip() throws {
        let json = Self.everyIOS27Key
        let pass = try Pass(json: json)
        #expect(pass.logoSymbolName == "star.circle.fill")
        #expect(pass.featuredActions?.map(\.type) == [.shop, .place])
        #expect(pass.featuredActions?[1].placeIdentifier == "I6FD")
        #expect(pass.featuredActions?[1].unknownKeys["x-title"] == ["en": "Visit us"])
        #expect(pass.posterGeneric?.footerFields?.first?.key == "points")
        #expect(pass.unknownKeyPaths == ["featuredActions[1].x-title"])
        #expect(pass.jsonValue == json)
        let strict = try JSONReader.parse(pass.jsonBytes())
        #expect(strict.isStrict)
        #expect(try Pass(json: strict.value) == pass)
    }

    @Test("known iOS 27 keys are not unknown keys; an unknown key inside an action still is")
    func knownKeys() {
        let unknown = PassValidator.validate(Self.everyIOS27Key).filter { $0.code == PassProblemCode.unknownKey }
        #expect(unknown.map(\.path) == ["featuredActions[1].x-title"])
        #expect(Pass.knownKeys.isSuperset(of: ["posterGeneric", "featuredActions", "logoSymbolName"]))
        #expect(PassStructure.knownKeys.contains("footerFields"))
    }

    @Test("a poster generic pass with fallback: style posterGeneric, fallback generic, fields of both with paths")
    func styleAndFields() throws {
        let pass = try Pass(json: Sample.posterGeneric)
        #expect(pass.style == .posterGeneric)
        #expect(pass.fallbackStyle == .generic)
        #expect(pass.styles == [.posterGeneric, .generic])
        #expect(pass.structure?.footerFields?.count == 1)
        #expect(
            pass.fields.map(\.path) == [
                "posterGeneric.headerFields[0]", "posterGeneric.primaryFields[0]", "posterGeneric.backFields[0]",
                "posterGeneric.footerFields[0]", "generic.headerFields[0]", "generic.primaryFields[0]",
                "generic.secondaryFields[0]", "generic.backFields[0]",
            ])
        // The poster's field comes first: its primary field has no label (drawn as a title).
        #expect(pass.field(forKey: "member")?.label == nil)
        #expect(try Pass(json: Sample.storeCard).fallbackStyle == nil)
        var alone = pass
        alone.generic = nil
        #expect(alone.style == .posterGeneric && alone.fallbackStyle == nil)
    }

    @Test("shared keys across posterGeneric and its fallback are fine; the whole-pass rule stays for ordinary passes")
    func keyScopes() {
        #expect(PassValidator.validate(Sample.posterGeneric).isEmpty)
        var twice = Sample.posterGeneric
        twice.set("posterGeneric.backFields[1]", ["key": "member", "value": "again"])
        let dups = PassValidator.validate(twice).filter { $0.code == PassProblemCode.duplicateFieldKey }
        #expect(dups.map(\.path) == ["posterGeneric.backFields[1].key"])
        // Two legacy styles sharing a key: still one error per pass (plus the style error).
        var legacy = Sample.storeCard
        legacy.set("generic", ["primaryFields": [["key": "balance", "value": "1"]]])
        let problems = PassValidator.validate(legacy)
        #expect(findings(problems, PassProblemCode.duplicateFieldKey, "storeCard.primaryFields[0].key").count == 1)
        #expect(findings(problems, PassProblemCode.noStyle, "storeCard").count == 1)
    }

    @Test("a featured action built in code writes the keys Apple's builder uses")
    func actionInCode() throws {
        var pass = try Pass(json: Sample.posterGeneric)
        pass.featuredActions = [PassFeaturedAction(identifier: "call", type: .call, url: "tel:+15555550123")]
        let written: JSONValue = [["identifier": "call", "type": "call", "url": "tel:+15555550123"]]
        #expect(pass.jsonValue["featuredActions"] == written)
        #expect(pass.validate().isEmpty)
        #expect(FeaturedActionType.allKnown.count == 14)
        #expect(!FeaturedActionType(rawValue: "bookTrain").isKnown)
    }

    @Test("featuredActions that are not an array of objects cannot be read")
    func actionsNotAnArray() {
        var json = Sample.storeCard
        json.set("featuredActions", Sample.action("a"))
        #expect(throws: PassModelError.self) { try Pass(json: json) }
        json.set("featuredActions", ["shop"])
        #expect {
            _ = try Pass(json: json)
        } throws: { error in
            (error as? PassModelError)?.path == "featuredActions[0]"
        }
    }

    @Test(
        "EAN-13 check digits; legacy formats have no message rule",
        arguments: [
            ("400638133393", 1), ("590123412345", 7), ("000000000000", 0),
        ])
    func ean13(digits: String, check: Int) {
        #expect(BarcodeFormat.ean13CheckDigit(digits) == check)
        #expect(BarcodeFormat.ean13.messageProblem(digits + String(check)) == nil)
        #expect(BarcodeFormat.ean13CheckDigit(digits + "0") == nil)
        #expect(BarcodeFormat.qr.messageProblem("anything at all") == nil)
        #expect(BarcodeFormat.code128.messageProblem("lower case ok") == nil)
    }

    @Test("EAN-13: every other last digit, a digit too many or too few and non-ASCII digits are reported")
    func ean13Problems() {
        for (digits, check) in [("400638133393", 1), ("590123412345", 7), ("000000000000", 0)] {
            for last in 0...9 where last != check {
                #expect(BarcodeFormat.ean13.messageProblem(digits + String(last))?.contains("check digit") == true)
            }
            #expect(BarcodeFormat.ean13.messageProblem(digits + String(check) + "0") != nil)
            #expect(BarcodeFormat.ean13.messageProblem(String(digits.dropLast())) != nil)
        }
        // Arabic-Indic digits are numbers, but not ones EAN-13 encodes.
        #expect(BarcodeFormat.ean13.messageProblem("٤٠٠٦٣٨١٣٣٣٩٣١")?.contains("cannot encode") == true)
        #expect(BarcodeFormat.ean13.messageProblem("4006381333931\n") != nil)
    }
}
