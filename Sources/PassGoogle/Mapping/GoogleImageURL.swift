import PassSigning

/// The public URL under which `serve` publishes an image for Google to fetch: content-addressed by the SHA-256 of
/// its bytes, so new content always gets a new URL (Google keeps its own copy of what it fetched) and the answer
/// never changes (immutable, cacheable). One function for the mapping that writes the URLs and the service that
/// answers them.
public enum GoogleImageURL {
    /// The path under the base: `google/images/<64 hex>.png` (or `.jpg`).
    public static let pathPrefix = "google/images/"

    /// `<base>/google/images/<sha256 hex>.<png|jpg>`; the base's trailing `/` is optional.
    public static func url(base: String, bytes: [UInt8]) -> String {
        url(base: base, sha256: SHA256Digest.hex(bytes), fileExtension: fileExtension(of: bytes))
    }

    /// The URL of an image whose digest is known.
    public static func url(base: String, sha256: String, fileExtension: String) -> String {
        (base.hasSuffix("/") ? base : base + "/") + pathPrefix + sha256 + "." + fileExtension
    }

    /// `png` for PNG bytes, `jpg` for JPEG, `png` otherwise (templates hold PNGs).
    public static func fileExtension(of bytes: [UInt8]) -> String {
        bytes.starts(with: [0xFF, 0xD8, 0xFF]) ? "jpg" : "png"
    }

    /// The digest and extension a request path names (`google/images/<hex>.png`, without the base), nil for any
    /// other path.
    public static func parse(path: String) -> (sha256: String, fileExtension: String)? {
        guard path.hasPrefix(pathPrefix) else { return nil }
        let name = path.dropFirst(pathPrefix.count)
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 64, parts[1] == "png" || parts[1] == "jpg",
            parts[0].utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) })
        else { return nil }
        return (String(parts[0]), String(parts[1]))
    }
}
