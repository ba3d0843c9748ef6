/// Checks and redacts APNs device tokens.
public enum PushToken {
    /// Longest token accepted (Apple's are 64 hex digits today; allow growth).
    public static let maxLength = 200

    /// True for a non-empty, even-length, hexadecimal token no longer than `maxLength`.
    /// Anything else is never put into a URL and is treated as `BadDeviceToken`.
    public static func isValid(_ token: String) -> Bool {
        let utf8 = token.utf8
        guard !utf8.isEmpty, utf8.count <= maxLength, utf8.count % 2 == 0 else { return false }
        return utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66) || (byte >= 0x41 && byte <= 0x46)
        }
    }

    /// A short prefix safe to log: at most 8 characters (never more than half the token) followed by `…`.
    public static func redacted(_ token: String) -> String {
        let prefix = token.prefix(min(8, token.count / 2)).filter { $0.isHexDigit }
        return prefix + "…"
    }
}
