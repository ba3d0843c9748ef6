/// pass.json as Swift values. Every key of the Wallet pass format has a typed property; keys PassMint does not
/// know are kept verbatim in `unknownKeys` (at every level), so reading and writing a pass never drops anything.
///
/// Read leniently with `init(json:)`; write the strict form with `jsonValue` (sorted keys via `JSONWriter`,
/// colours always `rgb(r, g, b)`). Validity is judged separately by `PassValidator`, which works on raw JSON so it
/// can report problems a typed value cannot even hold.
public struct Pass: Sendable, Equatable {
    // MARK: Required (§1.1)
    public var formatVersion: Int64?
    public var passTypeIdentifier: String?
    public var serialNumber: String?
    public var teamIdentifier: String?
    public var organizationName: String?
    public var description: String?

    // MARK: Style dictionaries: exactly one legacy style; iOS 27 `posterGeneric` may stand beside it
    public var boardingPass: PassStructure?
    public var coupon: PassStructure?
    public var eventTicket: PassStructure?
    public var generic: PassStructure?
    public var storeCard: PassStructure?
    /// iOS 27; stands beside a legacy style dictionary that older systems show.
    public var posterGeneric: PassStructure?

    // MARK: Visual (§1.2)
    public var logoText: String?
    public var foregroundColor: PassColorValue?
    public var backgroundColor: PassColorValue?
    public var labelColor: PassColorValue?
    /// Undocumented by Apple but used in the wild (colour of primary values over a strip).
    public var stripColor: PassColorValue?
    public var suppressStripShine: Bool?

    // MARK: Barcodes (§1.3)
    public var barcodes: [PassBarcode]?
    /// Deprecated single barcode; Code128 not allowed.
    public var barcode: PassBarcode?

    // MARK: Relevance (§1.4)
    public var locations: [PassLocation]?
    public var beacons: [PassBeacon]?
    /// Metres.
    public var maxDistance: Double?
    /// Deprecated since iOS 18; ISO 8601 with time and zone.
    public var relevantDate: String?
    public var relevantDates: [PassRelevantDate]?

    // MARK: Lifecycle (§1.5)
    public var expirationDate: String?
    public var voided: Bool?
    public var sharingProhibited: Bool?
    /// Event tickets and boarding passes only.
    public var groupingIdentifier: String?
    /// Any JSON, for companion apps; never shown.
    public var userInfo: JSONValue?

    // MARK: Apps and web service (§1.6)
    public var associatedStoreIdentifiers: [Int64]?
    public var appLaunchURL: String?
    public var webServiceURL: String?
    public var authenticationToken: String?

    // MARK: NFC and semantics (§1.7, §1.8)
    public var nfc: PassNFC?
    public var semantics: SemanticTags?

    // MARK: iOS 18 poster event tickets (§1.9)
    public var preferredStyleSchemes: [StyleScheme]?
    public var eventLogoText: String?
    public var footerBackgroundColor: PassColorValue?
    public var useAutomaticColors: Bool?
    public var suppressHeaderDarkening: Bool?
    public var auxiliaryStoreIdentifiers: [Int64]?

    // MARK: Event-guide URL keys (iOS 18)
    public var accessibilityURL: String?
    public var addOnURL: String?
    public var bagPolicyURL: String?
    public var contactVenueEmail: String?
    public var contactVenuePhoneNumber: String?
    public var contactVenueWebsite: String?
    public var directionsInformationURL: String?
    public var merchandiseURL: String?
    public var orderFoodURL: String?
    public var parkingInformationURL: String?
    public var purchaseParkingURL: String?
    public var sellURL: String?
    public var transferURL: String?
    public var transitInformationURL: String?

    // MARK: iOS 26 boarding-pass keys
    /// Multi-event entries; kept as JSON.
    public var upcomingPassInformation: JSONValue?
    public var changeSeatURL: String?
    public var entertainmentURL: String?
    public var purchaseAdditionalBaggageURL: String?
    public var purchaseLoungeAccessURL: String?
    public var purchaseWifiURL: String?
    public var upgradeURL: String?
    public var managementURL: String?
    public var registerServiceAnimalURL: String?
    public var reportLostBagURL: String?
    public var requestWheelchairURL: String?
    public var trackBagsURL: String?
    public var transitProviderEmail: String?
    public var transitProviderPhoneNumber: String?
    public var transitProviderWebsiteURL: String?

    // MARK: iOS 27
    /// At most two calls to action drawn below the pass, in priority order.
    public var featuredActions: [PassFeaturedAction]?
    /// An SF Symbol name shown as the logo. In Apple's pass builder but not in the pass.json reference, so
    /// Wallet may ignore it: keep `logo.png` as well.
    public var logoSymbolName: String?

    /// Top-level keys PassMint does not know, kept verbatim.
    public var unknownKeys: [String: JSONValue] = [:]

    /// An empty pass (`formatVersion` 1); set the other keys yourself.
    public init() {
        formatVersion = 1
    }
}

extension Pass {
    /// JSON paths of every key PassMint does not know, at every level, sorted.
    public var unknownKeyPaths: [String] {
        var out: [String] = []
        func add(_ base: String, _ keys: [String: JSONValue]) {
            out += keys.keys.map { JSONPath.member(base, $0) }
        }
        add("", unknownKeys)
        for style in styles { add(style.rawValue, self[style]?.unknownKeys ?? [:]) }
        for located in fields { add(located.path, located.field.unknownKeys) }
        for (i, b) in (barcodes ?? []).enumerated() { add(JSONPath.index("barcodes", i), b.unknownKeys) }
        if let barcode { add("barcode", barcode.unknownKeys) }
        for (i, l) in (locations ?? []).enumerated() { add(JSONPath.index("locations", i), l.unknownKeys) }
        for (i, b) in (beacons ?? []).enumerated() { add(JSONPath.index("beacons", i), b.unknownKeys) }
        for (i, r) in (relevantDates ?? []).enumerated() { add(JSONPath.index("relevantDates", i), r.unknownKeys) }
        if let nfc { add("nfc", nfc.unknownKeys) }
        for (i, a) in (featuredActions ?? []).enumerated() {
            add(JSONPath.index("featuredActions", i), a.unknownKeys)
        }
        return out.sorted()
    }
}
