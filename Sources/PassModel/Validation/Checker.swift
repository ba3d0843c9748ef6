/// Accumulates problems while `PassValidator` walks raw pass.json, with typed helpers that report wrong types.
struct Checker {
    var problems: [Problem] = []
    /// Each pass field's findings as `checkStyles` checks it, when recording (see `ValidationPlan`).
    var fieldRuns: [FieldSite: FieldRun]?

    mutating func error(_ code: ProblemCode, _ path: String, _ message: String) {
        problems.append(Problem(.error, code, message, path: path))
    }

    mutating func warning(_ code: ProblemCode, _ path: String, _ message: String) {
        problems.append(Problem(.warning, code, message, path: path))
    }

    mutating func invalid(_ path: String, _ message: String, severity: Problem.Severity = .error) {
        problems.append(Problem(severity, PassProblemCode.invalidValue, message, path: path))
    }

    /// Reports a wrong JSON type at `path`, naming what was found and what to write.
    mutating func wrongType(_ path: String, _ value: JSONValue, expected: String) {
        invalid(path, "\(Self.name(path)) is \(Self.show(value)); write \(expected)")
    }

    /// A string member, reporting a wrong type; nil when absent or wrong.
    mutating func string(_ obj: [String: JSONValue], _ key: String, in base: @autoclosure () -> String) -> String? {
        guard let v = obj[key] else { return nil }
        guard case .string(let s) = v else {
            wrongType(JSONPath.member(base(), key), v, expected: "a string in double quotes")
            return nil
        }
        return s
    }

    /// A required non-empty string member: reports `pass.missing-key` when absent.
    mutating func requiredString(_ obj: [String: JSONValue], _ key: String, in base: String, hint: String) -> String? {
        var path: String { JSONPath.member(base, key) }
        guard obj[key] != nil else {
            error(PassProblemCode.missingKey, path, "\(Self.owner(base)) has no \"\(key)\"; add \(hint)")
            return nil
        }
        guard let s = string(obj, key, in: base) else { return nil }
        if s.isBlank { invalid(path, "\(key) is empty; write \(hint)") }
        return s
    }

    mutating func bool(_ obj: [String: JSONValue], _ key: String, in base: @autoclosure () -> String) -> Bool? {
        guard let v = obj[key] else { return nil }
        guard case .bool(let b) = v else {
            wrongType(JSONPath.member(base(), key), v, expected: "true or false without quotes")
            return nil
        }
        return b
    }

    mutating func number(_ obj: [String: JSONValue], _ key: String, in base: @autoclosure () -> String) -> Double? {
        guard let v = obj[key] else { return nil }
        guard let d = v.doubleValue else {
            wrongType(JSONPath.member(base(), key), v, expected: "a number without quotes")
            return nil
        }
        return d
    }

    /// An enumeration member; a value Apple does not document is reported with a did-you-mean (an error unless
    /// `severity` says otherwise, for lists too new to be sure of).
    mutating func enumValue<E: PassEnumValue>(
        _ obj: [String: JSONValue], _ key: String, in base: @autoclosure () -> String, as type: E.Type,
        severity: Problem.Severity = .error
    ) -> E? {
        guard let s = string(obj, key, in: base()) else { return nil }
        let e = E(rawValue: s)
        guard e.isKnown else {
            var hint = ""
            if let near = Self.nearest(s, in: E.allKnown.map(\.rawValue)) { hint = " (did you mean \"\(near)\"?)" }
            invalid(
                JSONPath.member(base(), key),
                "\(key) \"\(s)\" is not a value Wallet knows\(hint); write one of \(E.knownList)",
                severity: severity)
            return nil
        }
        return e
    }

    /// A timestamp member that must be ISO 8601 with time and zone.
    mutating func date(
        _ obj: [String: JSONValue], _ key: String, in base: @autoclosure () -> String,
        severity: Problem.Severity = .error
    ) -> PassDate? {
        guard let s = string(obj, key, in: base()) else { return nil }
        if let reason = PassDate.problem(with: s) {
            invalid(JSONPath.member(base(), key), "\(key) \(reason)", severity: severity)
            return nil
        }
        return PassDate(parsing: s)
    }

    /// An array member; reports a wrong type.
    mutating func array(
        _ obj: [String: JSONValue], _ key: String, in base: @autoclosure () -> String, of what: String
    ) -> [JSONValue]? {
        guard let v = obj[key] else { return nil }
        guard case .array(let a) = v else {
            wrongType(JSONPath.member(base(), key), v, expected: "an array [ … ] of \(what)")
            return nil
        }
        return a
    }

    /// An object value at `path`; reports a wrong type.
    mutating func object(_ v: JSONValue, at path: @autoclosure () -> String, what: String) -> [String: JSONValue]? {
        guard case .object(let o) = v else {
            wrongType(path(), v, expected: what)
            return nil
        }
        return o
    }

    /// Reports every member of `obj` whose name is not in `known` as `pass.unknown-key`.
    mutating func unknownKeys(_ obj: [String: JSONValue], known: Set<String>, in base: @autoclosure () -> String) {
        // Sorted (for a stable report order) only when there is something to report: this runs for every field
        // of every pass issued.
        guard !obj.keys.allSatisfy(known.contains) else { return }
        for key in obj.keys.sorted() where !known.contains(key) {
            var hint = "check the spelling"
            if let near = Self.nearest(key, in: Array(known)) { hint = "did you mean \"\(near)\"?" }
            let place = base().isEmpty ? "at the top level" : "in \(base())"
            warning(
                PassProblemCode.unknownKey, JSONPath.member(base(), key),
                "\"\(key)\" is not a key PassMint knows \(place); it is kept as is, but Wallet may ignore it — \(hint)")
        }
    }

    // MARK: Message helpers

    /// The last component of a path, for messages ("storeCard.primaryFields[0].value" → "value").
    static func name(_ path: String) -> String {
        path.isEmpty ? "pass.json" : path
    }

    /// "the field at storeCard.primaryFields[0]" style owner description.
    static func owner(_ base: String) -> String {
        base.isEmpty ? "pass.json" : base
    }

    /// A value shown in a message: strings quoted, other kinds by name.
    static func show(_ v: JSONValue) -> String {
        switch v {
        case .string(let s): return "the string \"\(s.count > 60 ? String(s.prefix(60)) + "…" : s)\""
        case .integer(let i): return "the number \(i)"
        case .double(let d): return "the number \(JSONWriter.formatDouble(d))"
        case .bool(let b): return "\(b)"
        case .null: return "null"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The closest candidate by edit distance (at most 2 edits, or 3 for long words).
    static func nearest(_ word: String, in candidates: [String]) -> String? {
        var best: (String, Int)?
        let limit = word.count > 10 ? 3 : 2
        for c in candidates.sorted() {
            let d = editDistance(word.lowercased(), c.lowercased())
            if d <= limit, d < (best?.1 ?? Int.max) { best = (c, d) }
        }
        if let best { return best.0 }
        // "PKTransitTypeAirplane" → "PKTransitTypeAir" (the longest candidate inside the word), else
        // "short" → "PKDateStyleShort" (the shortest candidate containing the word, which needs 5+ letters).
        let w = word.lowercased()
        let inside = candidates.filter { $0.count >= 5 && w.contains($0.lowercased()) }
        if let longest = inside.max(by: { $0.count < $1.count }) { return longest }
        guard w.count >= 5 else { return nil }
        return candidates.filter { $0.lowercased().contains(w) }.min { ($0.count, $0) < ($1.count, $1) }
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var prev = Array(0...b.count)
        var cur = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            cur[0] = i
            for j in 1...b.count {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&prev, &cur)
        }
        return prev[b.count]
    }
}
