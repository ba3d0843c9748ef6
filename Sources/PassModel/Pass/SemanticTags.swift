/// Machine-readable semantic tags (`semantics` at the top level or on a field). Stored as the JSON object it is,
/// so every tag (including ones added in later iOS versions) survives a round trip; the tags PassMint reasons
/// about have typed accessors.
public struct SemanticTags: Sendable, Equatable {
    /// All tags, verbatim.
    public var tags: [String: JSONValue]

    /// Creates tags from a dictionary.
    public init(_ tags: [String: JSONValue] = [:]) {
        self.tags = tags
    }

    init(_ r: ObjectReader) throws(PassModelError) {
        tags = r.members
    }

    /// The tags as a JSON object.
    public var jsonValue: JSONValue { .object(tags) }

    /// Reads or writes one tag.
    public subscript(tag: String) -> JSONValue? {
        get { tags[tag] }
        set { tags[tag] = newValue }
    }

    private func string(_ k: String) -> String? { tags[k]?.stringValue }
    private mutating func setString(_ k: String, _ v: String?) { tags[k] = v.map { .string($0) } }

    // Typed accessors for the tags PassMint reasons about (poster requirements, event facts); setting nil removes.

    /// `eventName`: required for poster event tickets.
    public var eventName: String? {
        get { string("eventName") }
        set { setString("eventName", newValue) }
    }
    public var venueName: String? {
        get { string("venueName") }
        set { setString("venueName", newValue) }
    }
    public var venueRegionName: String? {
        get { string("venueRegionName") }
        set { setString("venueRegionName", newValue) }
    }
    public var venueRoom: String? {
        get { string("venueRoom") }
        set { setString("venueRoom", newValue) }
    }
    public var venueEntrance: String? {
        get { string("venueEntrance") }
        set { setString("venueEntrance", newValue) }
    }
    public var eventStartDate: String? {
        get { string("eventStartDate") }
        set { setString("eventStartDate", newValue) }
    }
    public var eventEndDate: String? {
        get { string("eventEndDate") }
        set { setString("eventEndDate", newValue) }
    }
    public var homeTeamAbbreviation: String? {
        get { string("homeTeamAbbreviation") }
        set { setString("homeTeamAbbreviation", newValue) }
    }
    public var awayTeamAbbreviation: String? {
        get { string("awayTeamAbbreviation") }
        set { setString("awayTeamAbbreviation", newValue) }
    }
    public var attendeeName: String? {
        get { string("attendeeName") }
        set { setString("attendeeName", newValue) }
    }
    public var eventType: EventType? {
        get { string("eventType").map(EventType.init(rawValue:)) }
        set { setString("eventType", newValue?.rawValue) }
    }
    public var performerNames: [String]? {
        get { tags["performerNames"]?.arrayValue?.compactMap(\.stringValue) }
        set { tags["performerNames"] = newValue.map { .array($0.map { .string($0) }) } }
    }

    /// Semantic tags whose value is an ISO 8601 date string.
    public static let dateTags: Set<String> = [
        "eventStartDate", "eventEndDate", "venueGatesOpenDate", "venueParkingLotsOpenDate",
        "venueBoxOfficeOpenDate", "venueDoorsOpenDate", "venueFanZoneOpenDate", "venueOpenDate", "venueCloseDate",
        "originalArrivalDate", "originalBoardingDate", "originalDepartureDate", "currentArrivalDate",
        "currentBoardingDate", "currentDepartureDate",
    ]
}
