extension Pass {
    /// Top-level string keys and where they live.
    static let stringKeys: [(String, WritableKeyPath<Pass, String?> & Sendable)] = {
        [
            ("passTypeIdentifier", \.passTypeIdentifier), ("serialNumber", \.serialNumber),
            ("teamIdentifier", \.teamIdentifier), ("organizationName", \.organizationName),
            ("description", \.description), ("logoText", \.logoText), ("relevantDate", \.relevantDate),
            ("expirationDate", \.expirationDate), ("groupingIdentifier", \.groupingIdentifier),
            ("appLaunchURL", \.appLaunchURL), ("webServiceURL", \.webServiceURL),
            ("authenticationToken", \.authenticationToken), ("eventLogoText", \.eventLogoText),
            ("accessibilityURL", \.accessibilityURL), ("addOnURL", \.addOnURL), ("bagPolicyURL", \.bagPolicyURL),
            ("contactVenueEmail", \.contactVenueEmail), ("contactVenuePhoneNumber", \.contactVenuePhoneNumber),
            ("contactVenueWebsite", \.contactVenueWebsite), ("directionsInformationURL", \.directionsInformationURL),
            ("merchandiseURL", \.merchandiseURL), ("orderFoodURL", \.orderFoodURL),
            ("parkingInformationURL", \.parkingInformationURL), ("purchaseParkingURL", \.purchaseParkingURL),
            ("sellURL", \.sellURL), ("transferURL", \.transferURL), ("transitInformationURL", \.transitInformationURL),
            ("changeSeatURL", \.changeSeatURL), ("entertainmentURL", \.entertainmentURL),
            ("purchaseAdditionalBaggageURL", \.purchaseAdditionalBaggageURL),
            ("purchaseLoungeAccessURL", \.purchaseLoungeAccessURL), ("purchaseWifiURL", \.purchaseWifiURL),
            ("upgradeURL", \.upgradeURL), ("managementURL", \.managementURL),
            ("registerServiceAnimalURL", \.registerServiceAnimalURL), ("reportLostBagURL", \.reportLostBagURL),
            ("requestWheelchairURL", \.requestWheelchairURL), ("trackBagsURL", \.trackBagsURL),
            ("transitProviderEmail", \.transitProviderEmail),
            ("transitProviderPhoneNumber", \.transitProviderPhoneNumber),
            ("transitProviderWebsiteURL", \.transitProviderWebsiteURL), ("logoSymbolName", \.logoSymbolName),
        ]
    }()

    static let colorKeys: [(String, WritableKeyPath<Pass, PassColorValue?> & Sendable)] = {
        [
            ("foregroundColor", \.foregroundColor), ("backgroundColor", \.backgroundColor),
            ("labelColor", \.labelColor), ("stripColor", \.stripColor),
            ("footerBackgroundColor", \.footerBackgroundColor),
        ]
    }()

    static let boolKeys: [(String, WritableKeyPath<Pass, Bool?> & Sendable)] = {
        [
            ("suppressStripShine", \.suppressStripShine), ("voided", \.voided),
            ("sharingProhibited", \.sharingProhibited), ("useAutomaticColors", \.useAutomaticColors),
            ("suppressHeaderDarkening", \.suppressHeaderDarkening),
        ]
    }()

    static let storeIdentifierKeys: [(String, WritableKeyPath<Pass, [Int64]?> & Sendable)] = {
        [
            ("associatedStoreIdentifiers", \.associatedStoreIdentifiers),
            ("auxiliaryStoreIdentifiers", \.auxiliaryStoreIdentifiers),
        ]
    }()

    /// Keys with their own structure (not in the tables above).
    static let structuredKeys: [String] =
        [
            "formatVersion", "maxDistance", "barcodes", "barcode", "locations", "beacons", "relevantDates", "userInfo",
            "nfc", "semantics", "preferredStyleSchemes", "upcomingPassInformation",
            "featuredActions",
        ] + PassStyle.allCases.map(\.rawValue)

    /// Every top-level key PassMint knows.
    public static let knownKeys: Set<String> = {
        Set(
            stringKeys.map(\.0) + colorKeys.map(\.0) + boolKeys.map(\.0) + storeIdentifierKeys.map(\.0) + structuredKeys
        )
    }()

    /// Reads pass.json leniently: `#rrggbb` colours, numbers written as strings, integers where strings belong,
    /// `"true"`/`"false"` booleans and a single barcode object in `barcodes` are accepted (and written strictly).
    /// Unknown keys are kept at every level.
    /// - Throws: `PassModelError.wrongType` with the JSON path when a value cannot be represented at all
    ///   (the top level is not an object, a field group is not an array, a field value is `true`, …).
    public init(json: JSONValue) throws(PassModelError) {
        self = try Self.parse(json).pass
    }

    /// Like `init(json:)`, and also returns the JSON paths of the values the lenient reader rewrote
    /// (so their strict form differs from the input), sorted.
    public static func parse(_ json: JSONValue) throws(PassModelError) -> (pass: Pass, normalizedPaths: [String]) {
        let log = DecodeLog()
        let r = try ObjectReader(json, path: .root, log: log)
        var p = Pass()
        p.formatVersion = try r.integer("formatVersion")
        for (key, kp) in stringKeys { p[keyPath: kp] = try r.string(key) }
        for (key, kp) in colorKeys { p[keyPath: kp] = try r.color(key) }
        for (key, kp) in boolKeys { p[keyPath: kp] = try r.bool(key) }
        for (key, kp) in storeIdentifierKeys {
            p[keyPath: kp] = try r.array(key) { (v, path) throws(PassModelError) in
                try ObjectReader.integer(v, path: path.text, log: log)
            }
        }
        for style in PassStyle.allCases { p[style] = try r.object(style.rawValue, PassStructure.init) }
        p.maxDistance = try r.double("maxDistance")
        p.barcodes = try r.objects("barcodes", wrapSingle: true, PassBarcode.init)
        p.barcode = try r.object("barcode", PassBarcode.init)
        p.locations = try r.objects("locations", PassLocation.init)
        p.beacons = try r.objects("beacons", PassBeacon.init)
        p.relevantDates = try r.objects("relevantDates", PassRelevantDate.init)
        p.userInfo = r.raw("userInfo")
        p.nfc = try r.object("nfc", PassNFC.init)
        p.semantics = try r.object("semantics", SemanticTags.init)
        p.preferredStyleSchemes = try r.array("preferredStyleSchemes") { (v, path) throws(PassModelError) in
            guard case .string(let s) = v else {
                throw .wrongType(
                    path: path.text, expected: "a style scheme name such as \"posterEventTicket\"",
                    found: v.kindName)
            }
            return StyleScheme(rawValue: s)
        }
        p.upcomingPassInformation = r.raw("upcomingPassInformation")
        p.featuredActions = try r.objects("featuredActions", PassFeaturedAction.init)
        p.unknownKeys = r.unknownMembers(known: knownKeys)
        return (p, log.normalizedPaths.sorted())
    }

    /// The strict JSON form: every key that is set, unknown keys verbatim, colours as `rgb(r, g, b)`.
    /// Serialise it with `JSONWriter` for sorted keys.
    public var jsonValue: JSONValue {
        var w = ObjectWriter(unknown: unknownKeys)
        w.set("formatVersion", formatVersion)
        for (key, kp) in Self.stringKeys { w.set(key, self[keyPath: kp]) }
        for (key, kp) in Self.colorKeys { w.set(key, self[keyPath: kp]) }
        for (key, kp) in Self.boolKeys { w.set(key, self[keyPath: kp]) }
        for (key, kp) in Self.storeIdentifierKeys { w.set(key, self[keyPath: kp]) { .integer($0) } }
        for style in PassStyle.allCases { w.set(style.rawValue, self[style]?.jsonValue) }
        w.set("maxDistance", maxDistance)
        w.set("barcodes", barcodes) { $0.jsonValue }
        w.set("barcode", barcode?.jsonValue)
        w.set("locations", locations) { $0.jsonValue }
        w.set("beacons", beacons) { $0.jsonValue }
        w.set("relevantDates", relevantDates) { $0.jsonValue }
        w.set("userInfo", userInfo)
        w.set("nfc", nfc?.jsonValue)
        w.set("semantics", semantics?.jsonValue)
        w.set("preferredStyleSchemes", preferredStyleSchemes) { .string($0.rawValue) }
        w.set("upcomingPassInformation", upcomingPassInformation)
        w.set("featuredActions", featuredActions) { $0.jsonValue }
        return w.value
    }

    /// Every finding of `PassValidator` on the strict form of this pass.
    public func validate() -> [Problem] {
        PassValidator.validate(jsonValue)
    }

    /// The strict pass.json bytes: sorted keys, two-space indentation, UTF-8.
    public func jsonBytes(pretty: Bool = true) -> [UInt8] {
        JSONWriter.serialize(jsonValue, pretty: pretty)
    }
}
