import Glibc
import PassSigning

/// The secret of a pass's distribution link (`<base>/p/<token>`): 32 bytes from the system's CSPRNG (256 bits,
/// so guessing a live link is hopeless at any request rate), written as 43 base64url characters without padding.
///
/// Only `hash` is ever stored: a copy of the database does not give working links. The token itself is shown
/// once, to whoever issued it (the `generate` / `batch` output, a reissue), and never logged.
public struct LinkToken: Sendable, Equatable, CustomStringConvertible {
    /// The base64url text, as it appears in the link.
    public let text: String

    /// How many characters a token has.
    public static let length = 43

    /// A fresh random token.
    public static func generate() -> LinkToken {
        var bytes = [UInt8](repeating: 0, count: 32)
        let filled = bytes.withUnsafeMutableBytes { getentropy($0.baseAddress, $0.count) == 0 }
        if !filled {
            // getentropy fills up to 256 bytes in one call; should it ever fail, the standard generator does.
            var rng = SystemRandomNumberGenerator()
            for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &rng) }
        }
        return LinkToken(uncheckedText: Base64URL.encode(bytes))
    }

    /// A token read from a URL path; nil unless it is exactly 43 base64url characters (anything else cannot be
    /// a token PassMint issued, so it is not looked up at all).
    public init?(parsing text: String) {
        guard text.utf8.count == Self.length, text.utf8.allSatisfy(Base64URL.isAlphabetByte) else { return nil }
        self.text = text
    }

    private init(uncheckedText: String) { text = uncheckedText }

    /// Lowercase hex SHA-256 of the token's text: what the store keeps and looks links up by. Equal hashes are
    /// found by an index lookup, so no secret is ever compared byte by byte in a way whose time leaks a prefix.
    public var hash: String { SHA256Digest.hex(Array(text.utf8)) }

    /// Redacted: a token must not reach a log through string interpolation.
    public var description: String { "LinkToken(…)" }
}

/// The absolute distribution link of a pass: `<base>/p/<token>`.
public struct PassLink: Sendable, Equatable {
    public let token: LinkToken
    /// The link as sent to the holder.
    public let url: String

    /// The link under `base` (a web service URL or an explicit link base; trailing slashes are dropped).
    public init(base: String, token: LinkToken) {
        self.token = token
        var base = base
        while base.hasSuffix("/") { base.removeLast() }
        url = "\(base)/p/\(token.text)"
    }
}

/// RFC 4648 §5 base64url without padding.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let b0 = UInt32(bytes[index])
            let b1 = index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0
            let b2 = index + 2 < bytes.count ? UInt32(bytes[index + 2]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            let characters = min(4, (bytes.count - index) * 4 / 3 + ((bytes.count - index) < 3 ? 1 : 0))
            for position in 0..<characters {
                out.append(alphabet[Int((group >> UInt32(18 - 6 * position)) & 63)])
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func isAlphabetByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }
}
