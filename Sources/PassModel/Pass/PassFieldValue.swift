/// A field's `value` (or `attributedValue`): a localizable string, an ISO 8601 date string, or a number.
/// Integers and decimals are kept apart so a round trip writes exactly what was read.
public enum PassFieldValue: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case integer(Int64)
    case double(Double)

    /// The value as pass.json writes it.
    public var jsonValue: JSONValue {
        switch self {
        case .string(let s): return .string(s)
        case .integer(let i): return .integer(i)
        case .double(let d): return .double(d)
        }
    }

    /// The number, or nil for strings.
    public var number: Double? {
        switch self {
        case .string: return nil
        case .integer(let i): return Double(i)
        case .double(let d): return d
        }
    }

    /// The string, or nil for numbers.
    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The string parsed as an ISO 8601 timestamp, when it is one.
    public var date: PassDate? { string.flatMap(PassDate.init(parsing:)) }

    /// The text as shown before localisation and formatting: the string, or the number as written in JSON.
    public var description: String {
        switch self {
        case .string(let s): return s
        case .integer(let i): return String(i)
        case .double(let d): return JSONWriter.formatDouble(d)
        }
    }

    init(json v: JSONValue, path: @autoclosure () -> String) throws(PassModelError) {
        switch v {
        case .string(let s): self = .string(s)
        case .integer(let i): self = .integer(i)
        case .double(let d): self = .double(d)
        default:
            throw .wrongType(path: path(), expected: "a string, a number or an ISO 8601 date string", found: v.kindName)
        }
    }
}

extension PassFieldValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
}
