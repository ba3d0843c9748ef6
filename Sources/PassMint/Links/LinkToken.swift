import Foundation
import Glibc
import PassSigning

/// The secret of a pass's distribution link (`<base>/p/<token>`): 36 bytes written as 48 base64url characters
/// without padding. The first 12 bytes are the token's selector: the second it was made (4 bytes, big-endian)
/// and 8 bytes from the system's CSPRNG; the other 24 bytes (192 bits) come from the CSPRNG as well, so guessing
/// a live link is hopeless at any request rate.
///
/// A store finds a link by its selector and accepts it only when the SHA-256 of the whole token matches
/// (`LinkKey`). Selectors made in the same second share their first characters, so the links of a batch go into
/// one end of the store's index instead of one random page of it each (a random key per link costs a page
/// written per link once the index outgrows the cache). Tokens issued before selectors (32 random bytes, 43
/// characters) still parse and are found by their hash alone.
///
/// Only `key` is ever stored: a copy of the database does not give working links. The token itself is shown
/// once, to whoever issued it (the `generate` / `batch` output, a reissue), and never logged.
public struct LinkToken: Sendable, Equatable, CustomStringConvertible {
    /// The base64url text, as it appears in the link.
    public let text: String

    /// How many characters a token has.
    public static let length = 48
    /// How many characters a token issued before selectors has (32 random bytes, no selector).
    public static let selectorlessLength = 43
    /// How many leading characters are the selector (its 12 bytes).
    static let selectorLength = 16

    /// A fresh token made at `now`.
    public static func generate(now: Date = Date()) -> LinkToken {
        let seconds = UInt32(clamping: Int64(now.timeIntervalSince1970.rounded(.down)))
        var bytes: [UInt8] = [
            UInt8(truncatingIfNeeded: seconds >> 24), UInt8(truncatingIfNeeded: seconds >> 16),
            UInt8(truncatingIfNeeded: seconds >> 8), UInt8(truncatingIfNeeded: seconds),
        ]
        bytes += randomBytes(32)
        return LinkToken(uncheckedText: Base64URL.encode(bytes))
    }

    private static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let filled = bytes.withUnsafeMutableBytes { getentropy($0.baseAddress, $0.count) == 0 }
        if !filled {
            // getentropy fills up to 256 bytes in one call; should it ever fail, the standard generator does.
            var rng = SystemRandomNumberGenerator()
            for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &rng) }
        }
        return bytes
    }

    /// A token read from a URL path; nil unless it is exactly 48 base64url characters, or 43 (a token issued
    /// before selectors). Anything else cannot be a token PassMint issued, so it is not looked up at all.
    public init?(parsing text: String) {
        let count = text.utf8.count
        guard count == Self.length || count == Self.selectorlessLength,
            text.utf8.allSatisfy(Base64URL.isAlphabetByte)
        else { return nil }
        self.text = text
    }

    private init(uncheckedText: String) { text = uncheckedText }

    /// Lowercase hex SHA-256 of the token's text: what the store checks a link's token against.
    public var hash: String { SHA256Digest.hex(Array(text.utf8)) }

    /// What a store keeps of this token and finds its link by.
    public var key: LinkKey {
        LinkKey(
            selector: text.utf8.count == Self.length ? String(text.prefix(Self.selectorLength)) : nil, hash: hash)
    }

    /// Redacted: a token must not reach a log through string interpolation.
    public var description: String { "LinkToken(…)" }
}

/// What a store keeps of a link's token and finds the link by (never the token itself, so a copy of the database
/// gives no working link).
///
/// A link is found through an index on its selector, and its hash is then compared by the database: neither
/// compares the secret part of a token, and learning from timing how much of a stored SHA-256 a guess matched
/// gives no way to a token that has that hash.
public struct LinkKey: Sendable, Equatable {
    /// The token's first 16 characters (the second it was made and 64 random bits); nil for a token issued before
    /// selectors, which is found by its hash.
    public let selector: String?
    /// Lowercase hex SHA-256 of the token's whole text.
    public let hash: String

    public init(selector: String?, hash: String) {
        self.selector = selector
        self.hash = hash
    }
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
