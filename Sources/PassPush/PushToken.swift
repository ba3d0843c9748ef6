import PassLog

/// An APNs device token as Wallet sends it at registration and as the pusher puts it into a URL.
///
/// The one grammar for push tokens: the register handler refuses what this refuses (400), and the pusher only
/// builds `/3/device/{token}` from a value of this type, so the service never stores a token it cannot send.
/// Its `description` is redacted, so interpolating a token into a message never logs it.
package struct PushToken: Sendable, Hashable, CustomStringConvertible {
    /// Longest token accepted: Apple's are 64 hex digits today; allow growth.
    package static let maxLength = 200

    /// The rule in words, for error messages.
    package static let rule = "an even number (2 to \(maxLength)) of hexadecimal characters"

    /// The token's text, exactly as Wallet sent it.
    package let hex: String

    /// The token, or nil when `text` is not non-empty, even-length hexadecimal of at most `maxLength` characters.
    package init?(_ text: String) {
        guard Self.isValid(text) else { return nil }
        hex = text
    }

    /// True for a non-empty, even-length, hexadecimal token no longer than `maxLength`.
    package static func isValid(_ token: String) -> Bool {
        let utf8 = token.utf8
        guard !utf8.isEmpty, utf8.count <= maxLength, utf8.count % 2 == 0 else { return false }
        return utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66) || (byte >= 0x41 && byte <= 0x46)
        }
    }

    /// A short prefix safe to log: at most 8 characters (never more than half the token) followed by `…`.
    package static func redacted(_ token: String) -> String { ServiceLog.redacted(pushToken: token) }

    /// The redacted form: a token never reaches a log through string interpolation.
    package var description: String { Self.redacted(hex) }
}
