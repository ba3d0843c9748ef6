/// A string-valued pass.json enumeration that keeps values PassMint does not know (so nothing is dropped
/// on a round trip) and can say whether a value is one Apple documents.
public protocol PassEnumValue: RawRepresentable, Sendable, Hashable, CustomStringConvertible
where RawValue == String {
    /// The values Apple documents, in documentation order.
    static var allKnown: [Self] { get }
    init(rawValue: String)
}

extension PassEnumValue {
    /// True when Apple documents this value.
    public var isKnown: Bool { Self.allKnown.contains(self) }
    public var description: String { rawValue }
    /// The documented values joined for messages: `PKTransitTypeAir, PKTransitTypeBoat, …`.
    static var knownList: String { allKnown.map(\.rawValue).joined(separator: ", ") }
}

/// `boardingPass.transitType`.
public struct TransitType: PassEnumValue {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let air = Self(rawValue: "PKTransitTypeAir")
    public static let boat = Self(rawValue: "PKTransitTypeBoat")
    public static let bus = Self(rawValue: "PKTransitTypeBus")
    public static let generic = Self(rawValue: "PKTransitTypeGeneric")
    public static let train = Self(rawValue: "PKTransitTypeTrain")
    public static let allKnown: [Self] = [.air, .boat, .bus, .generic, .train]
}

/// `barcodes[].format` and `barcode.format`.
public struct BarcodeFormat: PassEnumValue {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let qr = Self(rawValue: "PKBarcodeFormatQR")
    public static let pdf417 = Self(rawValue: "PKBarcodeFormatPDF417")
    public static let aztec = Self(rawValue: "PKBarcodeFormatAztec")
    public static let code128 = Self(rawValue: "PKBarcodeFormatCode128")
    /// iOS 27 additions: older systems cannot show these, so a legacy format must follow them.
    public static let code39 = Self(rawValue: "PKBarcodeFormatCode39")
    public static let codabar = Self(rawValue: "PKBarcodeFormatCodabar")
    public static let ean13 = Self(rawValue: "PKBarcodeFormatEAN13")
    public static let i2of5 = Self(rawValue: "PKBarcodeFormatI2of5")
    /// Formats every Wallet since iOS 9 can show.
    public static let legacy: [Self] = [.qr, .pdf417, .aztec, .code128]
    /// Formats added in iOS 27.
    public static let iOS27: [Self] = [.code39, .codabar, .ean13, .i2of5]
    public static let allKnown: [Self] = legacy + iOS27
    /// True for QR, PDF417, Aztec and Code128.
    public var isLegacy: Bool { Self.legacy.contains(self) }
}

/// Field `textAlignment`.
public struct TextAlignment: PassEnumValue {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let left = Self(rawValue: "PKTextAlignmentLeft")
    public static let center = Self(rawValue: "PKTextAlignmentCenter")
    public static let right = Self(rawValue: "PKTextAlignmentRight")
    public static let natural = Self(rawValue: "PKTextAlignmentNatural")
    public static let allKnown: [Self] = [.left, .center, .right, .natural]
}

/// Field `dateStyle` and `timeStyle`.
public struct DateStyle: PassEnumValue {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let none = Self(rawValue: "PKDateStyleNone")
    public static let short = Self(rawValue: "PKDateStyleShort")
    public static let medium = Self(rawValue: "PKDateStyleMedium")
    public static let long = Self(rawValue: "PKDateStyleLong")
    public static let full = Self(rawValue: "PKDateStyleFull")
    public static let allKnown: [Self] = [.none, .short, .medium, .long, .full]
}

/// Field `numberStyle`.
public struct NumberStyle: PassEnumValue {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let decimal = Self(rawValue: "PKNumberStyleDecimal")
    public static let percent = Self(rawValue: "PKNumberStylePercent")
    public static let scientific = Self(rawValue: "PKNumberStyleScientific")
    public static let spellOut = Self(rawValue: "PKNumberStyleSpellOut")
    public static let allKnown: [Self] = [.decimal, .percent, .scientific, .spellOut]
}

/// Field `dataDetectorTypes` entries (back fields only).
public struct DataDetectorType: PassEnumValue {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let phoneNumber = Self(rawValue: "PKDataDetectorTypePhoneNumber")
    public static let link = Self(rawValue: "PKDataDetectorTypeLink")
    public static let address = Self(rawValue: "PKDataDetectorTypeAddress")
    public static let calendarEvent = Self(rawValue: "PKDataDetectorTypeCalendarEvent")
    public static let allKnown: [Self] = [.phoneNumber, .link, .address, .calendarEvent]
}

/// `preferredStyleSchemes` entries.
public struct StyleScheme: PassEnumValue {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let posterEventTicket = Self(rawValue: "posterEventTicket")
    public static let eventTicket = Self(rawValue: "eventTicket")
    public static let semanticBoardingPass = Self(rawValue: "semanticBoardingPass")
    public static let boardingPass = Self(rawValue: "boardingPass")
    public static let allKnown: [Self] = [.posterEventTicket, .eventTicket, .semanticBoardingPass, .boardingPass]
}

/// Semantic tag `eventType`.
public struct EventType: PassEnumValue {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let generic = Self(rawValue: "PKEventTypeGeneric")
    public static let movie = Self(rawValue: "PKEventTypeMovie")
    public static let conference = Self(rawValue: "PKEventTypeConference")
    public static let convention = Self(rawValue: "PKEventTypeConvention")
    public static let workshop = Self(rawValue: "PKEventTypeWorkshop")
    public static let socialGathering = Self(rawValue: "PKEventTypeSocialGathering")
    public static let sports = Self(rawValue: "PKEventTypeSports")
    public static let livePerformance = Self(rawValue: "PKEventTypeLivePerformance")
    public static let allKnown: [Self] = [
        .generic, .movie, .conference, .convention, .workshop, .socialGathering, .sports, .livePerformance,
    ]
}

/// iOS 27 `featuredActions[].type`, Apple's list (WalletPasses article "Defining the metadata of your Wallet
/// pass"). Apple groups them by the kind of pass they suit; Wallet is not known to refuse a mismatch.
public struct FeaturedActionType: PassEnumValue {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    // Events
    public static let viewSchedule = Self(rawValue: "viewSchedule")
    public static let watchTrailer = Self(rawValue: "watchTrailer")
    public static let listenToMusic = Self(rawValue: "listenToMusic")
    // Generic
    public static let call = Self(rawValue: "call")
    public static let place = Self(rawValue: "place")
    // Membership
    public static let addToBalance = Self(rawValue: "addToBalance")
    public static let order = Self(rawValue: "order")
    public static let shop = Self(rawValue: "shop")
    public static let membershipBenefits = Self(rawValue: "membershipBenefits")
    public static let bookAppointment = Self(rawValue: "bookAppointment")
    public static let bookCar = Self(rawValue: "bookCar")
    public static let bookFlight = Self(rawValue: "bookFlight")
    public static let bookStay = Self(rawValue: "bookStay")
    // Membership, generic and events
    public static let viewOffersRewards = Self(rawValue: "viewOffersRewards")
    public static let allKnown: [Self] = [
        .viewSchedule, .watchTrailer, .listenToMusic, .call, .place, .addToBalance, .order, .shop,
        .membershipBenefits, .bookAppointment, .bookCar, .bookFlight, .bookStay, .viewOffersRewards,
    ]
}
