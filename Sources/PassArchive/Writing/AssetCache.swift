internal import CZip

/// Template assets (icons, logos, strips, .strings, ...) prepared once and copied into many archives.
///
/// `init` compresses every deflated asset once into one private in-memory zip; each archive build copies those
/// entries' compressed bytes unchanged (`zip_source_zip` with `ZIP_FL_COMPRESSED`), so a batch pays the deflate
/// cost of an asset once, not per pass. Stored assets (PNG) need no compression: they are read in place from one
/// shared buffer, which with libzip 1.7.3 saves a second CRC pass over them compared with a zip-to-zip copy.
///
/// Thread safety: the cache holds only immutable values (`let` arrays and dictionaries). No libzip handle is
/// shared between builds: every `makeArchive(_:sharedAssets:sharedNames:)` call opens, uses and frees its own
/// handles on the cached bytes, so any number of threads may build archives from one cache at once.
public final class AssetCache: Sendable {
    private struct Asset: Sendable {
        var entry: ArchiveEntry
        var data: ArchiveWriter.CachedData
    }

    /// A zip holding the deflated assets, compressed as they will appear in each archive.
    private let compressedArchive: [UInt8]
    /// The stored assets' bytes, one after another.
    private let storedBytes: [UInt8]
    private let assets: [String: Asset]
    /// Asset names, in the order given to `init`.
    public let names: [String]

    /// Compresses each asset once (`Compression.forEntry` decides store or deflate).
    /// - Parameter entries: the shared files; names must be unique relative paths.
    /// - Throws: `ArchiveError.invalidEntryName`, `.duplicateEntry` or `.writeFailed`.
    public init(_ entries: [ArchiveEntry]) throws(ArchiveError) {
        var seen = Set<String>()
        for entry in entries {
            try ArchiveEntry.validate(name: entry.name)
            guard seen.insert(entry.name).inserted else { throw .duplicateEntry(entry: entry.name) }
        }
        var deflated: [ArchiveEntry] = []
        var stored: [UInt8] = []
        var assets: [String: Asset] = [:]
        for entry in entries {
            let compression = Compression.forEntry(entry.name)
            let data: ArchiveWriter.CachedData
            switch compression {
            case .deflate:
                data = .compressed(index: UInt64(deflated.count), compression: .deflate)
                deflated.append(entry)
            case .store:
                data = .stored(range: stored.count..<(stored.count + entry.bytes.count))
                stored.append(contentsOf: entry.bytes)
            }
            assets[entry.name] = Asset(entry: entry, data: data)
        }
        compressedArchive = try ArchiveWriter.makeArchive(deflated)
        storedBytes = stored
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

    /// Bytes held: the compressed zip of deflated assets plus the stored assets.
    public var cachedSize: Int { compressedArchive.count + storedBytes.count }

    /// Builds the item list for one archive: new entries plus shared ones, sorted by name across both.
    func items(entries: [ArchiveEntry], sharedNames: [String]) throws(ArchiveError) -> [ArchiveWriter.Item] {
        var items = entries.map { ArchiveWriter.Item.bytes($0) }
        for name in sharedNames {
            guard let asset = assets[name] else { throw .assetNotCached(entry: name, cached: names) }
            items.append(.cached(name: name, asset.data))
        }
        // Stable sort: equal names stay in input order, and the writer then reports them as duplicates.
        return items.enumerated().sorted { a, b in
            if a.element.name == b.element.name { return a.offset < b.offset }
            return ArchiveEntry.namePrecedes(a.element.name, b.element.name)
        }.map(\.element)
    }

    /// Opens a private read-only libzip handle on the cached zip and runs `body` with it and the stored bytes.
    /// Both live only inside `body`, so concurrent callers never share a handle.
    func withContext<R>(_ body: (ArchiveWriter.SharedContext) throws(ArchiveError) -> R) throws(ArchiveError) -> R {
        let result: Result<R, ArchiveError> = compressedArchive.withUnsafeBytes { zipMemory in
            storedBytes.withUnsafeBytes { storedMemory in
                do throws(ArchiveError) {
                    let archive: ZipArchive
                    do throws(ZipFailure) {
                        archive = try ZipArchive(source: try ZipSource.borrowing(zipMemory), flags: ZIP_RDONLY)
                    } catch {
                        throw ArchiveError.writeFailed(entry: nil, reason: "asset cache: \(error.message)")
                    }
                    return .success(try body(ArchiveWriter.SharedContext(archive: archive, stored: storedMemory)))
                } catch {
                    return .failure(error)
                }
            }
        }
        return try result.get()
    }
}

extension ArchiveWriter {
    /// Builds a zip of `entries` plus the cached assets named in `sharedNames`, whose compressed bytes are copied
    /// unchanged from `sharedAssets`. The result is an ordinary zip whose entries are sorted by name across both
    /// lists; it is byte-identical to `makeArchive` on the same files in that order. Safe to call from many
    /// threads at once with one cache.
    /// - Parameters:
    ///   - entries: per-archive files (pass.json, manifest.json, signature, ...).
    ///   - sharedAssets: the prepared template assets.
    ///   - sharedNames: which cached assets to include.
    /// - Throws: `ArchiveError.assetNotCached`, `.duplicateEntry`, `.invalidEntryName` or `.writeFailed`.
    public static func makeArchive(_ entries: [ArchiveEntry], sharedAssets: AssetCache, sharedNames: [String])
        throws(ArchiveError) -> [UInt8]
    {
        let items = try sharedAssets.items(entries: entries, sharedNames: sharedNames)
        if sharedNames.isEmpty { return try build(items, shared: nil) }
        return try sharedAssets.withContext { (context) throws(ArchiveError) in
            try build(items, shared: context)
        }
    }
}
