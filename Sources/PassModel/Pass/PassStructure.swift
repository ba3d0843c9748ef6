/// The dictionary under a style key (`storeCard`, `boardingPass`, …): the field groups, and `transitType`
/// for boarding passes.
public struct PassStructure: Sendable, Equatable {
    /// Required on `boardingPass`, invalid elsewhere.
    public var transitType: TransitType?
    public var headerFields: [PassField]?
    public var primaryFields: [PassField]?
    public var secondaryFields: [PassField]?
    public var auxiliaryFields: [PassField]?
    public var backFields: [PassField]?
    /// iOS 18 poster tickets: the "Additional Info" tile.
    public var additionalInfoFields: [PassField]?
    /// iOS 27 poster generic: the footer under the artwork.
    public var footerFields: [PassField]?
    /// Keys PassMint does not know, kept verbatim.
    public var unknownKeys: [String: JSONValue]

    /// The keys PassMint knows in a style dictionary.
    public static let knownKeys: Set<String> = Set(PassFieldGroup.allCases.map(\.rawValue) + ["transitType"])

    /// An empty structure.
    public init(transitType: TransitType? = nil) {
        self.transitType = transitType
        self.unknownKeys = [:]
    }

    /// The fields of one group (nil when the group is absent).
    public subscript(group: PassFieldGroup) -> [PassField]? {
        get {
            switch group {
            case .headerFields: return headerFields
            case .primaryFields: return primaryFields
            case .secondaryFields: return secondaryFields
            case .auxiliaryFields: return auxiliaryFields
            case .backFields: return backFields
            case .additionalInfoFields: return additionalInfoFields
            case .footerFields: return footerFields
            }
        }
        set {
            switch group {
            case .headerFields: headerFields = newValue
            case .primaryFields: primaryFields = newValue
            case .secondaryFields: secondaryFields = newValue
            case .auxiliaryFields: auxiliaryFields = newValue
            case .backFields: backFields = newValue
            case .additionalInfoFields: additionalInfoFields = newValue
            case .footerFields: footerFields = newValue
            }
        }
    }

    init(_ r: ObjectReader) throws(PassModelError) {
        transitType = try r.enumeration("transitType")
        unknownKeys = [:]
        for group in PassFieldGroup.allCases {
            self[group] = try r.objects(group.rawValue, PassField.init)
        }
        unknownKeys = r.unknownMembers(known: Self.knownKeys)
    }

    /// The strict JSON form.
    public var jsonValue: JSONValue {
        var w = ObjectWriter(unknown: unknownKeys)
        w.set("transitType", transitType)
        for group in PassFieldGroup.allCases {
            w.set(group.rawValue, self[group]) { $0.jsonValue }
        }
        return w.value
    }
}
