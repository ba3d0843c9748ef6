/// Lowercase hexadecimal text of bytes: digests, tokens, JSON `\u00XX` escapes. The one hex encoder.
public enum Hex {
    /// `0123456789abcdef` as bytes.
    public static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Two lowercase hex digits per byte, no separators.
    @inlinable
    public static func lowercase(_ bytes: some Collection<UInt8>) -> String {
        // Written in place: digests and tokens are turned into text several times per pass.
        String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            var o = 0
            for byte in bytes {
                out[o] = digits[Int(byte >> 4)]
                out[o + 1] = digits[Int(byte & 0x0F)]
                o += 2
            }
            return o
        }
    }
}
