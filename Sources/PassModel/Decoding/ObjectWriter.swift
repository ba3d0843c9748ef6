/// Builds the strict JSON object of a model value: unknown keys first (verbatim), then every non-nil known key.
struct ObjectWriter {
    var members: [String: JSONValue]

    init(unknown: [String: JSONValue]) {
        members = unknown
    }

    var value: JSONValue { .object(members) }

    mutating func set(_ key: String, _ v: String?) {
        if let v { members[key] = .string(v) }
    }

    mutating func set(_ key: String, _ v: Int64?) {
        if let v { members[key] = .integer(v) }
    }

    mutating func set(_ key: String, _ v: Double?) {
        if let v { members[key] = .number(v) }
    }

    mutating func set(_ key: String, _ v: Bool?) {
        if let v { members[key] = .bool(v) }
    }

    mutating func set(_ key: String, _ v: PassColorValue?) {
        if let v { members[key] = .string(v.description) }
    }

    mutating func set<E: PassEnumValue>(_ key: String, _ v: E?) {
        if let v { members[key] = .string(v.rawValue) }
    }

    mutating func set(_ key: String, _ v: JSONValue?) {
        if let v { members[key] = v }
    }

    mutating func set<T>(_ key: String, _ v: [T]?, _ encode: (T) -> JSONValue) {
        if let v { members[key] = .array(v.map(encode)) }
    }
}

extension JSONValue {
    /// A number as JSON: whole values below 2^53 become `.integer` (written the same way, compares equal to
    /// integer input), everything else `.double`.
    static func number(_ d: Double) -> JSONValue {
        if d == d.rounded(), abs(d) < 9e15 { return .integer(Int64(d)) }
        return .double(d)
    }
}
