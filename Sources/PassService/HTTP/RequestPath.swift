/// The one form in which a request path is matched: runs of `/` are one separator wherever they stand, and each
/// segment is percent-decoded on its own. The router and the admin check on a request's head both use it, so
/// `//admin/v1/stats`, `/admin/v1//stats` and `/%61dmin/v1/stats` are the same route as `/admin/v1/stats` for
/// both, and a proxy rule on the plain form covers every spelling.
struct RequestPath: Equatable, Sendable {
    /// The decoded segments; a trailing `/` leaves an empty last segment (`/healthz/` is not `/healthz`).
    let segments: [String]

    /// - Throws: the `PercentDecoding.Problem` of the first segment that cannot be decoded.
    init(_ raw: String) throws(PercentDecoding.Problem) {
        let bytes = raw.utf8
        var segments: [String] = []
        var start = bytes.startIndex
        // Skip the leading separators; split on the byte, not on Characters (grapheme breaking is costly here).
        while start != bytes.endIndex, bytes[start] == UInt8(ascii: "/") { bytes.formIndex(after: &start) }
        var index = start
        while index != bytes.endIndex {
            guard bytes[index] == UInt8(ascii: "/") else {
                bytes.formIndex(after: &index)
                continue
            }
            segments.append(try PercentDecoding.decode(Substring(raw.utf8[start..<index])))
            while index != bytes.endIndex, bytes[index] == UInt8(ascii: "/") { bytes.formIndex(after: &index) }
            start = index
            if index == bytes.endIndex { segments.append("") }
        }
        if start != bytes.endIndex { segments.append(try PercentDecoding.decode(Substring(raw.utf8[start...]))) }
        self.segments = segments
    }

    /// Whether `raw` (a path as sent) begins with the segment `first` in this form, without decoding the rest:
    /// the check every request's head gets, so it allocates nothing unless the segment is percent-encoded.
    static func raw(_ raw: String, startsWith first: String) -> Bool {
        var bytes = raw.utf8[...]
        while bytes.first == UInt8(ascii: "/") { bytes = bytes.dropFirst() }
        let segment = bytes[..<(bytes.firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex)]
        guard segment.contains(UInt8(ascii: "%")) else { return segment.elementsEqual(first.utf8) }
        return (try? PercentDecoding.decode(Substring(segment))) == first
    }
}
