/// Percent-decoding of request-target parts, done by PassMint on the raw target as the client sent it.
///
/// Why not libmicrohttpd's: it decodes the whole path into a C string, so `%00` cut `S1%00junk` down to `S1`
/// and `%2F` turned into a path separator. Here a path is split on its raw `/` first and each segment decoded
/// on its own; anything that decodes to a control byte, or to bytes that are not UTF-8, is refused, so what a
/// handler sees is exactly what the client sent.
package enum PercentDecoding {
    /// Why a part of the target was refused; each is a 400.
    package enum Problem: Error, Equatable {
        case invalidEscape
        case controlCharacter
        case invalidUTF8

        package var message: String {
            switch self {
            case .invalidEscape: "a '%' that is not followed by two hexadecimal digits"
            case .controlCharacter: "a control character (raw or percent-encoded)"
            case .invalidUTF8: "percent-encoded bytes that are not UTF-8"
            }
        }
    }

    /// `part` with `%XX` escapes decoded (and `+` as a space when `plusIsSpace`, as in a query string).
    /// - Throws: a `Problem` for a malformed escape, a control byte (0x00-0x1F, 0x7F), raw or decoded, or
    ///   bytes that are not UTF-8.
    static func decode(_ part: Substring, plusIsSpace: Bool = false) throws(Problem) -> String {
        let raw = part.utf8
        // The common case, nothing encoded: no copy of the bytes.
        if !raw.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") || isControl($0) }) {
            return String(part)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index != raw.endIndex {
            var byte = raw[index]
            raw.formIndex(after: &index)
            if byte == UInt8(ascii: "%") {
                guard index != raw.endIndex, let high = hexValue(raw[index]) else { throw .invalidEscape }
                raw.formIndex(after: &index)
                guard index != raw.endIndex, let low = hexValue(raw[index]) else { throw .invalidEscape }
                raw.formIndex(after: &index)
                byte = high << 4 | low
            } else if byte == UInt8(ascii: "+"), plusIsSpace {
                byte = UInt8(ascii: " ")
            }
            if isControl(byte) { throw .controlCharacter }
            bytes.append(byte)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8 }
        return text
    }

    /// C0 controls and DEL: never part of an identifier, and NUL truncates any C string that carries it.
    static func isControl(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x7F }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
