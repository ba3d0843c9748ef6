import PassSigning

/// The public URL under which `serve` publishes an image for Google to fetch: content-addressed by the SHA-256 of
/// its bytes, so new content always gets a new URL (Google keeps its own copy of what it fetched) and the answer
/// never changes (immutable, cacheable). One function for the mapping that writes the URLs and the service that
/// answers them.
public enum GoogleImageURL {
    /// The path under the base: `google/images/<32 hex>.png` (or `.jpg`).
    public static let pathPrefix = "google/images/"
    /// Hex digits of the SHA-256 in a URL: 128 bits name an image uniquely, and every character counts against
    /// the length of a save link that carries the URL.
    public static let digestLength = 32

    /// `<base>/google/images/<first 32 hex of the SHA-256>.<png|jpg>`; the base's trailing `/` is optional.
    public static func url(base: String, bytes: [UInt8]) -> String {
        url(base: base, digest: digest(of: bytes), fileExtension: fileExtension(of: bytes))
    }

    /// The digest an image's URL names: the first `digestLength` hex digits of its SHA-256.
    public static func digest(of bytes: [UInt8]) -> String {
        String(SHA256Digest.hex(bytes).prefix(digestLength))
    }

    /// The URL of an image whose digest (`digest(of:)`) is known.
    public static func url(base: String, digest: String, fileExtension: String) -> String {
        (base.hasSuffix("/") ? base : base + "/") + pathPrefix + digest + "." + fileExtension
    }

    /// `png` for PNG bytes, `jpg` for JPEG, `png` otherwise (templates hold PNGs).
    public static func fileExtension(of bytes: [UInt8]) -> String {
        bytes.starts(with: [0xFF, 0xD8, 0xFF]) ? "jpg" : "png"
    }

    /// The digest and extension a request path names (`google/images/<hex>.png`, without the base), nil for any
    /// other path.
    public static func parse(path: String) -> (digest: String, fileExtension: String)? {
        guard path.hasPrefix(pathPrefix) else { return nil }
        let name = path.dropFirst(pathPrefix.count)
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == digestLength, parts[1] == "png" || parts[1] == "jpg",
            parts[0].utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) })
        else { return nil }
        return (String(parts[0]), String(parts[1]))
    }
}
