/// A JSON document as a Swift value. Object key order is not kept: the writer always sorts keys,
/// which is what makes PassMint's output deterministic.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

extension JSONValue {
    /// The string payload, or nil for any other kind.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The object payload, or nil for any other kind.
    public var objectValue: [String: JSONValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The array payload, or nil for any other kind.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The boolean payload, or nil for any other kind.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The number as a Double (integers widen), or nil for non-numbers.
    public var doubleValue: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// True for `.integer` and `.double`.
    public var isNumber: Bool { doubleValue != nil }

    /// A short name of the value's kind for error messages ("string", "number", …).
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer, .double: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// Member lookup for objects; nil for missing keys and non-objects.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByFloatLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

/// Builds JSON paths such as `storeCard.primaryFields[0].value` for messages.
public enum JSONPath {
    /// Appends an object member to a path.
    public static func member(_ base: String, _ key: String) -> String {
        base.isEmpty ? key : "\(base).\(key)"
    }

    /// Appends an array index to a path.
    public static func index(_ base: String, _ index: Int) -> String {
        "\(base)[\(index)]"
    }
}
