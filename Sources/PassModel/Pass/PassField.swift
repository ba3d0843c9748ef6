/// One field dictionary (Apple's `PassFieldContent`) inside a field group.
public struct PassField: Sendable, Equatable {
    /// Unique across the whole pass, or within each style dictionary on a poster generic pass (whose fallback
    /// shares its keys). Optional only so a broken pass can still be read and reported on.
    public var key: String?
    public var value: PassFieldValue?
    public var label: String?
    /// Overrides `value` for display; only `<a href="…">` markup is allowed.
    public var attributedValue: PassFieldValue?
    /// Notification text on update; `%@` is replaced by the new value.
    public var changeMessage: String?
    /// Back fields only; `[]` turns every detector off.
    public var dataDetectorTypes: [DataDetectorType]?
    /// Not allowed on primary or back fields.
    public var textAlignment: TextAlignment?
    public var dateStyle: DateStyle?
    public var timeStyle: DateStyle?
    public var isRelative: Bool?
    public var ignoresTimeZone: Bool?
    /// Only for numeric values.
    public var numberStyle: NumberStyle?
    /// ISO 4217 code; only for numeric values.
    public var currencyCode: String?
    /// 0 or 1; only in `eventTicket.auxiliaryFields`.
    public var row: Int64?
    /// Field-level semantic tags.
    public var semantics: SemanticTags?
    /// Keys PassMint does not know, kept verbatim.
    public var unknownKeys: [String: JSONValue]

    /// The keys PassMint knows in a field dictionary.
    public static let knownKeys: Set<String> = [
        "key", "value", "label", "attributedValue", "changeMessage", "dataDetectorTypes", "textAlignment",
        "dateStyle", "timeStyle", "isRelative", "ignoresTimeZone", "numberStyle", "currencyCode", "row", "semantics",
    ]

    /// A field with a key, a value and optionally a label.
    public init(key: String, value: PassFieldValue, label: String? = nil, changeMessage: String? = nil) {
        self.key = key
        self.value = value
        self.label = label
        self.changeMessage = changeMessage
        self.unknownKeys = [:]
    }

    init(_ r: ObjectReader) throws(PassModelError) {
        key = try r.string("key")
        value = try r.raw("value").map { (v) throws(PassModelError) in
            try PassFieldValue(json: v, path: r.child("value"))
        }
        label = try r.string("label")
        attributedValue = try r.raw("attributedValue").map { (v) throws(PassModelError) in
            try PassFieldValue(json: v, path: r.child("attributedValue"))
        }
        changeMessage = try r.string("changeMessage")
        dataDetectorTypes = try r.array("dataDetectorTypes") { (v, p) throws(PassModelError) in
            guard case .string(let s) = v else {
                throw .wrongType(path: p.text, expected: "one of \(DataDetectorType.knownList)", found: v.kindName)
            }
            return DataDetectorType(rawValue: s)
        }
        textAlignment = try r.enumeration("textAlignment")
        dateStyle = try r.enumeration("dateStyle")
        timeStyle = try r.enumeration("timeStyle")
        isRelative = try r.bool("isRelative")
        ignoresTimeZone = try r.bool("ignoresTimeZone")
        numberStyle = try r.enumeration("numberStyle")
        currencyCode = try r.string("currencyCode")
        row = try r.integer("row")
        semantics = try r.object("semantics", SemanticTags.init)
        unknownKeys = r.unknownMembers(known: Self.knownKeys)
    }

    /// The strict JSON form: every known key that is set plus the unknown keys verbatim.
    public var jsonValue: JSONValue {
        var w = ObjectWriter(unknown: unknownKeys)
        w.set("key", key)
        w.set("value", value?.jsonValue)
        w.set("label", label)
        w.set("attributedValue", attributedValue?.jsonValue)
        w.set("changeMessage", changeMessage)
        w.set("dataDetectorTypes", dataDetectorTypes) { .string($0.rawValue) }
        w.set("textAlignment", textAlignment)
        w.set("dateStyle", dateStyle)
        w.set("timeStyle", timeStyle)
        w.set("isRelative", isRelative)
        w.set("ignoresTimeZone", ignoresTimeZone)
        w.set("numberStyle", numberStyle)
        w.set("currencyCode", currencyCode)
        w.set("row", row)
        w.set("semantics", semantics?.jsonValue)
        return w.value
    }
}
