/// Splits a string into literal text and `{{ name }}` placeholders.
///
/// Rules: `{{`, optional spaces, a name, optional spaces, `}}` is a placeholder. A name starts with a letter or
/// `_` and continues with letters, digits, `_`, `.` or `-`. A `{{` with no `}}` after it is literal text, and so
/// is a lone `}}`. A `{{ … }}` whose content is not a name is an error (it is almost always a typo).
/// Substitution is a single pass: text coming from a value is never scanned again.
enum PlaceholderText {
    enum Segment: Equatable, Sendable {
        case literal(String)
        case placeholder(String)
    }

    /// The segments of `s`; `.failure(text)` carries the offending `{{ … }}`.
    static func segments(_ s: String) -> Result<[Segment], Malformed> {
        let u = Array(s.utf8)
        guard u.count >= 4, let first = findOpen(u, from: 0) else { return .success([.literal(s)]) }
        var out: [Segment] = []
        var literalStart = 0
        var i = first
        while true {
            guard let close = findClose(u, from: i + 2) else { break }
            let inner = trim(u[(i + 2)..<close])
            guard isName(inner) else {
                return .failure(Malformed(text: String(decoding: u[i..<(close + 2)], as: UTF8.self)))
            }
            if literalStart < i { out.append(.literal(String(decoding: u[literalStart..<i], as: UTF8.self))) }
            out.append(.placeholder(String(decoding: inner, as: UTF8.self)))
            literalStart = close + 2
            guard let next = findOpen(u, from: literalStart) else { break }
            i = next
        }
        if literalStart < u.count { out.append(.literal(String(decoding: u[literalStart...], as: UTF8.self))) }
        return .success(out)
    }

    struct Malformed: Error, Equatable {
        let text: String
    }

    /// True when `s` might contain a placeholder (cheap pre-check).
    static func mayContainPlaceholder(_ s: String) -> Bool {
        var previous: UInt8 = 0
        for b in s.utf8 {
            if b == UInt8(ascii: "{"), previous == UInt8(ascii: "{") { return true }
            previous = b
        }
        return false
    }

    /// True for a valid field / placeholder name.
    static func isName<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        guard let f = bytes.first, isLetter(f) || f == UInt8(ascii: "_") else { return false }
        return bytes.dropFirst().allSatisfy { b in
            isLetter(b) || (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: "_") || b == UInt8(ascii: ".")
                || b == UInt8(ascii: "-")
        }
    }

    static func isName(_ s: String) -> Bool { isName(Array(s.utf8)) }

    private static func isLetter(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }

    private static func findOpen(_ u: [UInt8], from: Int) -> Int? {
        var i = from
        while i + 1 < u.count {
            if u[i] == UInt8(ascii: "{"), u[i + 1] == UInt8(ascii: "{") { return i }
            i += 1
        }
        return nil
    }

    private static func findClose(_ u: [UInt8], from: Int) -> Int? {
        var i = from
        while i + 1 < u.count {
            if u[i] == UInt8(ascii: "}"), u[i + 1] == UInt8(ascii: "}") { return i }
            i += 1
        }
        return nil
    }

    private static func trim(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var t = s
        while let f = t.first, f == 0x20 || f == 0x09 { t.removeFirst() }
        while let l = t.last, l == 0x20 || l == 0x09 { t.removeLast() }
        return t
    }
}
