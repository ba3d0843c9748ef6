internal import CZip

/// Template assets (icons, logos, strips, ...) compressed once and copied raw into many archives.
///
/// `init` compresses every entry once into one private in-memory zip. Each archive build then opens its own
/// read-only libzip handle on those cached bytes and copies each shared entry's compressed data unchanged
/// (`zip_source_zip` with `ZIP_FL_COMPRESSED`), so a batch pays the deflate cost of an asset once, not per pass.
///
/// Thread safety: the cache holds only immutable values (`let` arrays and dictionaries). No libzip handle is
/// shared between builds: every `makeArchive(_:sharedAssets:sharedNames:)` call creates and frees its own,
/// reading the cached bytes in place, so any number of threads may build archives from one cache at once.
public final class AssetCache: Sendable {
    private struct Asset: Sendable {
        var index: UInt64
        var entry: ArchiveEntry
        var compression: Compression
    }

    /// The cached zip holding every asset, compressed as it will appear in each archive.
    private let archiveBytes: [UInt8]
    private let assets: [String: Asset]
    /// Asset names, in the order given to `init`.
    public let names: [String]

    /// Compresses each asset once (`Compression.forEntry` decides store or deflate).
    /// - Parameter entries: the shared files; names must be unique relative paths.
    /// - Throws: `ArchiveError.invalidEntryName`, `.duplicateEntry` or `.writeFailed`.
    public init(_ entries: [ArchiveEntry]) throws(ArchiveError) {
        archiveBytes = try ArchiveWriter.makeArchive(entries)
        var assets: [String: Asset] = [:]
        for (index, entry) in entries.enumerated() {
            assets[entry.name] = Asset(
                index: UInt64(index), entry: entry, compression: Compression.forEntry(entry.name))
        }
        self.assets = assets
        names = entries.map(\.name)
    }

    /// Whether an asset with this name is cached.
    public func contains(_ name: String) -> Bool {
        assets[name] != nil
    }

    /// The uncompressed asset (for hashing it into manifest.json), or nil when not cached.
    public func entry(_ name: String) -> ArchiveEntry? {
        assets[name]?.entry
    }

    /// Size in bytes of the cached compressed zip.
    public var compressedSize: Int { archiveBytes.count }

    /// Builds the item list for one archive: new entries plus shared ones, sorted by name across both.
    func items(entries: [ArchiveEntry], sharedNames: [String]) throws(ArchiveError) -> [ArchiveWriter.Item] {
        var items = entries.map { ArchiveWriter.Item.bytes($0) }
        for name in sharedNames {
            guard let asset = assets[name] else { throw .assetNotCached(entry: name, cached: names) }
            items.append(.shared(name: name, index: asset.index, compression: asset.compression))
        }
        // Stable sort: equal names stay in input order, and the writer then reports them as duplicates.
        return items.enumerated().sorted { a, b in
            if a.element.name == b.element.name { return a.offset < b.offset }
            return ArchiveEntry.namePrecedes(a.element.name, b.element.name)
        }.map(\.element)
    }

    /// Opens a private read-only libzip handle on the cached bytes and runs `body` with it.
    /// The handle lives only inside `body`, so concurrent callers never share one.
    func withArchive<R>(_ body: (ZipArchive) throws(ArchiveError) -> R) throws(ArchiveError) -> R {
        let result: Result<R, ArchiveError> = archiveBytes.withUnsafeBytes { memory in
            do throws(ArchiveError) {
                let archive: ZipArchive
                do throws(ZipFailure) {
                    archive = try ZipArchive(source: try ZipSource.borrowing(memory), flags: ZIP_RDONLY)
                } catch {
                    throw ArchiveError.writeFailed(entry: nil, reason: "asset cache: \(error.message)")
                }
                return .success(try body(archive))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

extension ArchiveWriter {
    /// Builds a zip of `entries` plus the cached assets named in `sharedNames`, whose compressed bytes are copied
    /// unchanged from `sharedAssets`. The result is an ordinary zip whose entries are sorted by name across both
    /// lists; its content equals `makeArchive` on the same files in that order. Safe to call from many threads.
    /// - Parameters:
    ///   - entries: per-archive files (pass.json, manifest.json, signature, ...).
    ///   - sharedAssets: the compressed template assets.
    ///   - sharedNames: which cached assets to include.
    /// - Throws: `ArchiveError.assetNotCached`, `.duplicateEntry`, `.invalidEntryName` or `.writeFailed`.
    public static func makeArchive(_ entries: [ArchiveEntry], sharedAssets: AssetCache, sharedNames: [String])
        throws(ArchiveError) -> [UInt8]
    {
        let items = try sharedAssets.items(entries: entries, sharedNames: sharedNames)
        if sharedNames.isEmpty { return try build(items, shared: nil) }
        return try sharedAssets.withArchive { (archive) throws(ArchiveError) in
            try build(items, shared: archive)
        }
    }
}
