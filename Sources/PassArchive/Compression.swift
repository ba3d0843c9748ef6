/// How an entry's bytes are stored in the zip.
public enum Compression: Sendable, Equatable {
    /// Kept as they are (method 0). For data that is already compressed, such as PNG.
    case store
    /// Deflated (method 8). For text: JSON and `.strings`.
    case deflate

    /// File extensions whose content is already compressed, so deflating costs CPU and saves nothing.
    static let alreadyCompressedExtensions: Set<String> = [
        "png", "jpg", "jpeg", "gif", "webp", "heic", "heif", "avif",
        "pkpass", "pkpasses", "zip", "gz", "tgz", "bz2", "xz", "zst", "7z",
        "mp3", "mp4", "m4a", "m4v", "mov", "aac", "woff", "woff2",
    ]

    /// The method PassMint uses for a file name: `.store` for PNG and other already-compressed formats and for the
    /// DER `signature` (random-looking bytes: deflate only adds a zlib setup per pass), `.deflate` for everything
    /// else (pass.json, manifest.json, pass.strings, ...).
    /// - Parameter name: entry name or path; only its extension (case-insensitive) matters.
    public static func forEntry(_ name: String) -> Compression {
        let file = name.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(name)
        if file == "signature" { return .store }
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return .deflate }
        let ext = file[file.index(after: dot)...].lowercased()
        return alreadyCompressedExtensions.contains(ext) ? .store : .deflate
    }
}
