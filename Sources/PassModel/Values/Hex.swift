/// Lowercase hexadecimal text of bytes: digests, tokens, JSON `\u00XX` escapes. The one hex encoder.
public enum Hex {
    /// `0123456789abcdef` as bytes.
    public static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Two lowercase hex digits per byte, no separators.
    public static func lowercase(_ bytes: some Collection<UInt8>) -> String {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
