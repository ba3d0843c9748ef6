import PassModel

/// A template's google.json after substitution: the kind it asks for and the class and object members it adds or
/// replaces (objects merge member by member, anything else replaces, `null` removes).
struct GoogleOverrides {
    var kind: GoogleKind?
    var klass: [String: JSONValue] = [:]
    var object: [String: JSONValue] = [:]

    init() {}

    /// - Throws: `GoogleError.invalidOverride` naming `file` and the member.
    init(_ value: JSONValue, file: String) throws(GoogleError) {
        guard let root = value.objectValue else {
            throw .invalidOverride(file: file, path: "", expected: "an object")
        }
        if let kind = root["kind"] {
            guard let text = kind.stringValue, let parsed = GoogleKind(rawValue: text) else {
                throw .invalidOverride(
                    file: file, path: "kind",
                    expected: "one of " + GoogleKind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
            }
            self.kind = parsed
        }
        for (member, target) in [("class", \GoogleOverrides.klass), ("object", \GoogleOverrides.object)] {
            guard let part = root[member] else { continue }
            guard let object = part.objectValue else {
                throw .invalidOverride(file: file, path: member, expected: "an object of Google \(member) fields")
            }
            self[keyPath: target] = object
        }
    }

    /// `base` with `changes` merged in.
    static func merge(_ base: [String: JSONValue], _ changes: [String: JSONValue]) -> [String: JSONValue] {
        var out = base
        for (key, value) in changes {
            if value == .null {
                out.removeValue(forKey: key)
            } else if case .object(let inner) = value, case .object(let existing)? = out[key] {
                out[key] = .object(merge(existing, inner))
            } else {
                out[key] = value
            }
        }
        return out
    }
}
