/// Colour strings in pass.json. Apple documents only CSS-style `rgb(r, g, b)` with integers 0–255;
/// PassMint also reads `#rrggbb` and `#rgb` and always writes `rgb(r, g, b)`.
public enum PassColor {
    /// Parses `rgb(r, g, b)` (any spacing, 0–255), `#rrggbb` or `#rgb`. Returns nil for anything else
    /// (including `rgba(…)`, names such as `red`, and components above 255).
    public static func parse(_ s: String) -> (r: UInt8, g: UInt8, b: UInt8)? {
        let text = s.trimmingSpaces()
        if text.hasPrefix("#") { return parseHex(String(text.dropFirst())) }
        return parseRGB(text)
    }

    /// Formats a colour the way Wallet documents it: `rgb(r, g, b)`.
    public static func format(r: UInt8, g: UInt8, b: UInt8) -> String {
        "rgb(\(r), \(g), \(b))"
    }

    /// True when `s` is already in the form Wallet accepts: `rgb(r, g, b)` with 0–255 (spacing free).
    public static func isStrict(_ s: String) -> Bool {
        s.hasPrefix("rgb(") && parseRGB(s) != nil
    }

    private static func parseRGB(_ text: String) -> (r: UInt8, g: UInt8, b: UInt8)? {
        // On UTF-8 bytes: this runs for every colour of every pass (read and validated), and Character-level
        // work (counting, lowercasing, splitting into Strings) made it a visible part of a batch's CPU.
        let bytes = Array(text.utf8)
        guard bytes.count > 5, bytes[bytes.count - 1] == UInt8(ascii: ")"),
            bytes[0] | 0x20 == UInt8(ascii: "r"), bytes[1] | 0x20 == UInt8(ascii: "g"),
            bytes[2] | 0x20 == UInt8(ascii: "b"), bytes[3] == UInt8(ascii: "(")
        else { return nil }
        var components: [UInt8] = []
        var start = 4
        for index in 4..<bytes.count where bytes[index] == UInt8(ascii: ",") || index == bytes.count - 1 {
            guard components.count < 3, let value = component(bytes[start..<index]) else { return nil }
            components.append(value)
            start = index + 1
        }
        guard components.count == 3 else { return nil }
        return (components[0], components[1], components[2])
    }

    /// One `rgb()` component: 1-3 ASCII digits, 0-255, with spaces, tabs or line breaks around them.
    private static func component(_ bytes: ArraySlice<UInt8>) -> UInt8? {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return nil }
        let digits = bytes[first...last]
        guard digits.count <= 3 else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value <= 255 ? UInt8(value) : nil
    }

    private static func parseHex(_ hex: String) -> (r: UInt8, g: UInt8, b: UInt8)? {
        guard hex.allSatisfy(\.isHexDigit), hex.allSatisfy(\.isASCII) else { return nil }
        let digits = hex.count == 3 ? hex.map { "\($0)\($0)" }.joined() : hex
        guard digits.count == 6, let v = UInt32(digits, radix: 16) else { return nil }
        return (UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF))
    }
}

/// A colour key's value: parsed components, or the original text when it is not a colour PassMint can read
/// (kept verbatim so nothing is lost; the validator reports it).
public enum PassColorValue: Sendable, Hashable, CustomStringConvertible {
    case rgb(red: UInt8, green: UInt8, blue: UInt8)
    case unparsed(String)

    /// Parses leniently (`rgb()`, `#rrggbb`, `#rgb`); anything else becomes `.unparsed`.
    public init(parsing s: String) {
        if let c = PassColor.parse(s) {
            self = .rgb(red: c.r, green: c.g, blue: c.b)
        } else {
            self = .unparsed(s)
        }
    }

    /// The components, or nil for an unparsed value.
    public var components: (r: UInt8, g: UInt8, b: UInt8)? {
        if case .rgb(let r, let g, let b) = self { return (r, g, b) }
        return nil
    }

    /// What PassMint writes: `rgb(r, g, b)`, or the original text when it could not be parsed.
    public var description: String {
        switch self {
        case .rgb(let r, let g, let b): return PassColor.format(r: r, g: g, b: b)
        case .unparsed(let s): return s
        }
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and line breaks (no Foundation needed).
    func trimmingSpaces() -> String {
        guard let start = firstIndex(where: { !Self.isSpace($0) }) else { return "" }
        let end = lastIndex(where: { !Self.isSpace($0) })!
        return String(self[start...end])
    }

    /// Whether `trimmingSpaces()` is empty, without building it (checked for every pass).
    var isBlank: Bool {
        // A string whose first byte is none of the four cannot start with one of them as a character.
        guard let first = utf8.first else { return true }
        guard first == 0x20 || first == 0x09 || first == 0x0A || first == 0x0D else { return false }
        return allSatisfy(Self.isSpace)
    }

    private static func isSpace(_ c: Character) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" }
}
