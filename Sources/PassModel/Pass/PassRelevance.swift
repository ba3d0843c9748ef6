/// An entry of `locations` (at most 10).
public struct PassLocation: Sendable, Equatable {
    public var latitude: Double?
    public var longitude: Double?
    /// Metres.
    public var altitude: Double?
    public var relevantText: String?
    /// Keys PassMint does not know, kept verbatim.
    public var unknownKeys: [String: JSONValue]

    /// The keys PassMint knows in a location dictionary.
    public static let knownKeys: Set<String> = ["latitude", "longitude", "altitude", "relevantText"]

    /// A location.
    public init(latitude: Double, longitude: Double, altitude: Double? = nil, relevantText: String? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.relevantText = relevantText
        self.unknownKeys = [:]
    }

    init(_ r: ObjectReader) throws(PassModelError) {
        latitude = try r.double("latitude")
        longitude = try r.double("longitude")
        altitude = try r.double("altitude")
        relevantText = try r.string("relevantText")
        unknownKeys = r.unknownMembers(known: Self.knownKeys)
    }

    /// The strict JSON form.
    public var jsonValue: JSONValue {
        var w = ObjectWriter(unknown: unknownKeys)
        w.set("latitude", latitude)
        w.set("longitude", longitude)
        w.set("altitude", altitude)
        w.set("relevantText", relevantText)
        return w.value
    }
}

/// An entry of `beacons`.
public struct PassBeacon: Sendable, Equatable {
    public var proximityUUID: String?
    /// 0–65535.
    public var major: Int64?
    /// 0–65535.
    public var minor: Int64?
    public var relevantText: String?
    /// Keys PassMint does not know, kept verbatim.
    public var unknownKeys: [String: JSONValue]

    /// The keys PassMint knows in a beacon dictionary.
    public static let knownKeys: Set<String> = ["proximityUUID", "major", "minor", "relevantText"]

    /// A beacon.
    public init(proximityUUID: String, major: Int64? = nil, minor: Int64? = nil, relevantText: String? = nil) {
        self.proximityUUID = proximityUUID
        self.major = major
        self.minor = minor
        self.relevantText = relevantText
        self.unknownKeys = [:]
    }

    init(_ r: ObjectReader) throws(PassModelError) {
        proximityUUID = try r.string("proximityUUID")
        major = try r.integer("major")
        minor = try r.integer("minor")
        relevantText = try r.string("relevantText")
        unknownKeys = r.unknownMembers(known: Self.knownKeys)
    }

    /// The strict JSON form.
    public var jsonValue: JSONValue {
        var w = ObjectWriter(unknown: unknownKeys)
        w.set("proximityUUID", proximityUUID)
        w.set("major", major)
        w.set("minor", minor)
        w.set("relevantText", relevantText)
        return w.value
    }
}

/// An entry of `relevantDates` (iOS 18+): an interval `{startDate, endDate}` or a single `{date}`
/// (`relevantDate` is the iOS 18 name of `date`).
public struct PassRelevantDate: Sendable, Equatable {
    public var startDate: String?
    public var endDate: String?
    public var date: String?
    /// The iOS 18 spelling of `date`.
    public var relevantDate: String?
    /// Keys PassMint does not know, kept verbatim.
    public var unknownKeys: [String: JSONValue]

    /// The keys PassMint knows in a relevantDates entry.
    public static let knownKeys: Set<String> = ["startDate", "endDate", "date", "relevantDate"]

    /// An interval.
    public init(startDate: String, endDate: String) {
        self.startDate = startDate
        self.endDate = endDate
        self.unknownKeys = [:]
    }

    /// A single date; written as both `date` (iOS 26) and `relevantDate` (iOS 18).
    public init(date: String) {
        self.date = date
        self.relevantDate = date
        self.unknownKeys = [:]
    }

    init(_ r: ObjectReader) throws(PassModelError) {
        startDate = try r.string("startDate")
        endDate = try r.string("endDate")
        date = try r.string("date")
        relevantDate = try r.string("relevantDate")
        unknownKeys = r.unknownMembers(known: Self.knownKeys)
    }

    /// The strict JSON form.
    public var jsonValue: JSONValue {
        var w = ObjectWriter(unknown: unknownKeys)
        w.set("startDate", startDate)
        w.set("endDate", endDate)
        w.set("date", date)
        w.set("relevantDate", relevantDate)
        return w.value
    }
}

/// The `nfc` dictionary (Value Added Services payload). Needs an NFC-enabled certificate.
public struct PassNFC: Sendable, Equatable {
    public var message: String?
    /// Base64 X.509 SubjectPublicKeyInfo of an ECDH P-256 key.
    public var encryptionPublicKey: String?
    public var requiresAuthentication: Bool?
    /// Keys PassMint does not know, kept verbatim.
    public var unknownKeys: [String: JSONValue]

    /// The keys PassMint knows in the nfc dictionary.
    public static let knownKeys: Set<String> = ["message", "encryptionPublicKey", "requiresAuthentication"]

    /// An NFC payload.
    public init(message: String, encryptionPublicKey: String, requiresAuthentication: Bool? = nil) {
        self.message = message
        self.encryptionPublicKey = encryptionPublicKey
        self.requiresAuthentication = requiresAuthentication
        self.unknownKeys = [:]
    }

    init(_ r: ObjectReader) throws(PassModelError) {
        message = try r.string("message")
        encryptionPublicKey = try r.string("encryptionPublicKey")
        requiresAuthentication = try r.bool("requiresAuthentication")
        unknownKeys = r.unknownMembers(known: Self.knownKeys)
    }

    /// The strict JSON form.
    public var jsonValue: JSONValue {
        var w = ObjectWriter(unknown: unknownKeys)
        w.set("message", message)
        w.set("encryptionPublicKey", encryptionPublicKey)
        w.set("requiresAuthentication", requiresAuthentication)
        return w.value
    }
}
