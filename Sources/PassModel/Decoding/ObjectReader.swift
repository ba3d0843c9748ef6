/// Collects what lenient decoding noticed: keys PassMint does not know and values it rewrote.
/// Lives only for the duration of one `Pass(json:)` call.
final class DecodeLog {
    var unknownKeyPaths: [String] = []
    var normalizedPaths: [String] = []
}

/// A JSON path inside the pass being decoded, spelled out (`storeCard.primaryFields[0].value`) only when an
/// error or a log entry needs it: decoding a pass visits a few hundred values and almost never reports one.
final class DecodePath: Sendable {
    private enum Step: Sendable {
        case member(String)
        case index(Int)
    }

    private let parent: DecodePath?
    private let step: Step?

    private init(parent: DecodePath?, step: Step?) {
        self.parent = parent
        self.step = step
    }

    /// The document itself (the empty path).
    static let root = DecodePath(parent: nil, step: nil)

    func member(_ key: String) -> DecodePath { DecodePath(parent: self, step: .member(key)) }
    func index(_ index: Int) -> DecodePath { DecodePath(parent: self, step: .index(index)) }

    /// The path as errors and logs show it (`JSONPath` notation).
    var text: String {
        guard let step, let parent else { return "" }
        switch step {
        case .member(let key): return JSONPath.member(parent.text, key)
        case .index(let index): return JSONPath.index(parent.text, index)
        }
    }
}

/// Lenient typed access to one JSON object during `Pass(json:)`. Harmless mismatches are converted and logged
/// (a number written as a string, an integer where a string belongs, `#rrggbb` colours); anything that cannot be
/// represented throws `PassModelError.wrongType` with the JSON path.
struct ObjectReader {
    let path: DecodePath
    let members: [String: JSONValue]
    let log: DecodeLog

    init(_ value: JSONValue, path: DecodePath, log: DecodeLog) throws(PassModelError) {
        guard case .object(let m) = value else {
            throw .wrongType(path: path.text, expected: "an object { … }", found: value.kindName)
        }
        self.path = path
        self.members = m
        self.log = log
    }

    /// The value of member `key`. Decoding asks for every key the model knows, most of them absent, so small
    /// objects (a field has 3-6 members) are scanned, which compares a few short strings instead of hashing
    /// the key; larger ones are looked up.
    private func member(_ key: String) -> JSONValue? {
        guard members.count <= 8 else { return members[key] }
        for (name, value) in members where name == key { return value }
        return nil
    }

    /// The path of member `key`, as text (for errors and logs).
    func child(_ key: String) -> String { path.member(key).text }

    func raw(_ key: String) -> JSONValue? {
        guard let v = member(key) else { return nil }
        return v
    }

    /// A string; an integer is accepted and written back as a string.
    func string(_ key: String) throws(PassModelError) -> String? {
        guard let v = member(key) else { return nil }
        return try Self.string(v, path: child(key), log: log)
    }

    static func string(_ v: JSONValue, path: @autoclosure () -> String, log: DecodeLog) throws(PassModelError) -> String
    {
        switch v {
        case .string(let s): return s
        case .integer(let i):
            log.normalizedPaths.append(path())
            return String(i)
        default: throw .wrongType(path: path(), expected: "a string", found: v.kindName)
        }
    }

    /// An integer; an integral double or a string of digits is accepted.
    func integer(_ key: String) throws(PassModelError) -> Int64? {
        guard let v = member(key) else { return nil }
        return try Self.integer(v, path: child(key), log: log)
    }

    static func integer(_ v: JSONValue, path: @autoclosure () -> String, log: DecodeLog) throws(PassModelError) -> Int64
    {
        switch v {
        case .integer(let i): return i
        case .double(let d) where d == d.rounded() && abs(d) < 9e15:
            log.normalizedPaths.append(path())
            return Int64(d)
        case .string(let s):
            if let i = Int64(s.trimmingSpaces()) {
                log.normalizedPaths.append(path())
                return i
            }
        default: break
        }
        throw .wrongType(path: path(), expected: "a whole number", found: describe(v))
    }

    /// A number; a numeric string is accepted.
    func double(_ key: String) throws(PassModelError) -> Double? {
        guard let v = member(key) else { return nil }
        switch v {
        case .integer(let i): return Double(i)
        case .double(let d): return d
        case .string(let s):
            if let d = Double(s.trimmingSpaces()), d.isFinite {
                log.normalizedPaths.append(child(key))
                return d
            }
        default: break
        }
        throw .wrongType(path: child(key), expected: "a number", found: Self.describe(v))
    }

    /// A boolean; `"true"`/`"false"` and `0`/`1` are accepted.
    func bool(_ key: String) throws(PassModelError) -> Bool? {
        guard let v = member(key) else { return nil }
        switch v {
        case .bool(let b): return b
        case .string("true"), .integer(1):
            log.normalizedPaths.append(child(key))
            return true
        case .string("false"), .integer(0):
            log.normalizedPaths.append(child(key))
            return false
        default:
            throw .wrongType(path: child(key), expected: "true or false", found: Self.describe(v))
        }
    }

    /// A colour string; parsed leniently and logged when the strict form differs from the input.
    func color(_ key: String) throws(PassModelError) -> PassColorValue? {
        guard let v = member(key) else { return nil }
        guard case .string(let s) = v else {
            throw .wrongType(path: child(key), expected: "a colour string \"rgb(r, g, b)\"", found: v.kindName)
        }
        let c = PassColorValue(parsing: s)
        if c.description != s { log.normalizedPaths.append(child(key)) }
        return c
    }

    /// A string-valued enumeration; unknown values are kept.
    func enumeration<E: PassEnumValue>(_ key: String, as type: E.Type = E.self) throws(PassModelError) -> E? {
        guard let v = member(key) else { return nil }
        guard case .string(let s) = v else {
            throw .wrongType(path: child(key), expected: "one of \(E.knownList)", found: v.kindName)
        }
        return E(rawValue: s)
    }

    /// A nested object decoded by `make`.
    func object<T>(_ key: String, _ make: (ObjectReader) throws(PassModelError) -> T) throws(PassModelError) -> T? {
        guard let v = member(key) else { return nil }
        return try make(ObjectReader(v, path: path.member(key), log: log))
    }

    /// An array whose elements are decoded by `make(element, path)`.
    /// With `wrapSingle`, a lone element (not in an array) is accepted and wrapped.
    func array<T>(
        _ key: String, wrapSingle: Bool = false, _ make: (JSONValue, DecodePath) throws(PassModelError) -> T
    ) throws(PassModelError) -> [T]? {
        guard let v = member(key) else { return nil }
        let base = path.member(key)
        let items: [JSONValue]
        switch v {
        case .array(let a): items = a
        case .object where wrapSingle:
            log.normalizedPaths.append(base.text)
            return [try make(v, base.index(0))]
        default:
            throw .wrongType(path: base.text, expected: "an array [ … ]", found: v.kindName)
        }
        var out: [T] = []
        out.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            out.append(try make(item, base.index(i)))
        }
        return out
    }

    /// An array of objects decoded by `make`.
    func objects<T>(
        _ key: String, wrapSingle: Bool = false, _ make: (ObjectReader) throws(PassModelError) -> T
    ) throws(PassModelError) -> [T]? {
        let log = self.log
        return try array(key, wrapSingle: wrapSingle) { (v, p) throws(PassModelError) in
            try make(ObjectReader(v, path: p, log: log))
        }
    }

    /// Members whose names are not in `known`, kept verbatim; their paths are logged as unknown.
    func unknownMembers(known: Set<String>) -> [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        for (k, v) in members where !known.contains(k) {
            out[k] = v
            log.unknownKeyPaths.append(child(k))
        }
        return out
    }

    static func describe(_ v: JSONValue) -> String {
        if case .string(let s) = v { return "string \"\(s)\"" }
        return v.kindName
    }
}
