/// An entry of iOS 27 `featuredActions`: a call to action Wallet draws below the pass with a system icon and a
/// localized title (at most two, in priority order). Kept typed so templates and lint can reason about the
/// action's `type`; keys PassMint does not know are kept verbatim like everywhere else.
public struct PassFeaturedAction: Sendable, Equatable {
    /// Unique in the pass; identifies the action across updates.
    public var identifier: String?
    public var type: FeaturedActionType?
    /// Where the action leads: an absolute URL (`https:`, `tel:` for `call`, …).
    public var url: String?
    /// A place ID instead of a `url` for `place` actions. Only one passkit-generator version writes it and
    /// Apple does not document it, so it is read and written but never relied on.
    public var placeIdentifier: String?
    /// Keys PassMint does not know, kept verbatim.
    public var unknownKeys: [String: JSONValue]

    /// The keys PassMint knows in a featured action (`placeIdentifier` is unconfirmed).
    public static let knownKeys: Set<String> = ["identifier", "type", "url", "placeIdentifier"]

    /// An action with the three keys Apple's talk and builder use.
    public init(identifier: String, type: FeaturedActionType, url: String) {
        self.identifier = identifier
        self.type = type
        self.url = url
        self.unknownKeys = [:]
    }

    init(_ r: ObjectReader) throws(PassModelError) {
        identifier = try r.string("identifier")
        type = try r.enumeration("type")
        url = try r.string("url")
        placeIdentifier = try r.string("placeIdentifier")
        unknownKeys = r.unknownMembers(known: Self.knownKeys)
    }

    /// The strict JSON form.
    public var jsonValue: JSONValue {
        var w = ObjectWriter(unknown: unknownKeys)
        w.set("identifier", identifier)
        w.set("type", type)
        w.set("url", url)
        w.set("placeIdentifier", placeIdentifier)
        return w.value
    }
}
