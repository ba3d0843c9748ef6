/// Template assets (icons, logos, strips, .strings, ...) prepared once and copied raw into many archives.
///
/// `init` writes every asset once with libzip into one private zip (PNG stored, the rest deflated; CRC-32
/// computed once). Each archive build then writes only its own few small entries (`ZipEntryRecord`) and
/// splices in the assets' local records verbatim, so a batch pays an asset's compression and CRC once, not per pass. (Adding a stored
/// entry through libzip 1.7.3 always recomputes its CRC, which for a 240 KB strip costs more than the signature.)
///
/// Thread safety: the cache holds only immutable values; builds share nothing mutable, so any number of threads
/// may build archives from one cache at once.
public final class AssetCache: Sendable {
    private struct Asset: Sendable {
        let entry: ArchiveEntry
        /// Its local record (header and compressed data) in `archive`.
        let local: ArchivePiece
        /// Its central-directory header, copied into each archive's own central directory.
        let central: ArraySlice<UInt8>
    }

    /// The zip holding every asset as it will appear in each archive; archives point into it.
    private let archive: ArchiveBytes
    private let assets: [String: Asset]
    /// Asset names, in the order given to `init`.
    public let names: [String]

    /// Compresses each asset once (`Compression.forEntry` decides store or deflate).
    /// - Parameter entries: the shared files; names must be unique relative paths.
    /// - Throws: `ArchiveError.invalidEntryName`, `.duplicateEntry` or `.writeFailed`.
    public init(_ entries: [ArchiveEntry]) throws(ArchiveError) {
        // In name order, the order of every archive's entries: the assets between two entries of a pass's own
        // then lie one after the other here, and are written as one piece.
        let sorted = entries.sorted { ArchiveEntry.namePrecedes($0.name, $1.name) }
        let zip = try ArchiveWriter.makeArchive(sorted)
        let records = try ZipRecords.parse(zip, file: "asset cache")
        archive = ArchiveBytes(zip)
        var assets: [String: Asset] = [:]
        for (entry, record) in Swift.zip(sorted, records) {
            assets[entry.name] = Asset(
                entry: entry, local: ArchivePiece(storage: archive, range: record.local), central: zip[record.central])
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

    /// Bytes held by the cached zip.
    public var cachedSize: Int { archive.count }

    /// A cached asset's records: its local record in `archive` and its central header.
    fileprivate func part(_ name: String) throws(ArchiveError) -> ZipRecords.Entry {
        guard let asset = assets[name] else { throw .assetNotCached(entry: name, cached: names) }
        return ZipRecords.Entry(name: name, local: [.shared(asset.local)], central: asset.central)
    }
}

extension ArchiveWriter {
    /// Builds a zip of `entries` plus the cached assets named in `sharedNames`, whose local records (compressed
    /// bytes and CRC) are copied unchanged from `sharedAssets`; `entries` are written by `ZipEntryRecord` (deflated
    /// with libdeflate at its fastest level). The result is an ordinary zip whose entries
    /// are sorted by name across both lists and hold the same files as `makeArchive` on the union. Safe to call
    /// from many threads at once with one cache.
    /// - Parameters:
    ///   - entries: per-archive files (pass.json, manifest.json, signature, ...).
    ///   - sharedAssets: the prepared template assets.
    ///   - sharedNames: which cached assets to include.
    /// - Throws: `ArchiveError.assetNotCached`, `.duplicateEntry`, `.invalidEntryName` or `.writeFailed`.
    public static func makeArchive(_ entries: [ArchiveEntry], sharedAssets: AssetCache, sharedNames: [String])
        throws(ArchiveError) -> [UInt8]
    {
        try makeArchiveParts(entries, sharedAssets: sharedAssets, sharedNames: sharedNames).bytes
    }

    /// `makeArchive(_:sharedAssets:sharedNames:)` as pieces: the assets' records are not copied (write them with
    /// `AtomicFile.write(_:to:)`, which takes the pieces as they are).
    public static func makeArchiveParts(_ entries: [ArchiveEntry], sharedAssets: AssetCache, sharedNames: [String])
        throws(ArchiveError) -> ArchiveParts
    {
        try SharedAssetLayout(sharedAssets, names: sharedNames).archiveParts(adding: entries)
    }
}

/// Some of a cache's assets laid out once, sorted by name, for many archives that each add a few entries of
/// their own (a template variant's shared files, one layout per variant). Safe to use from many threads at once.
public struct SharedAssetLayout: Sendable {
    private let parts: [ZipRecords.Entry]
    private let names: Set<String>

    /// - Parameters:
    ///   - cache: the prepared assets.
    ///   - names: which of them every archive holds.
    /// - Throws: `ArchiveError.assetNotCached` or `.duplicateEntry`.
    public init(_ cache: AssetCache, names: [String]) throws(ArchiveError) {
        var seen = Set<String>()
        var parts: [ZipRecords.Entry] = []
        parts.reserveCapacity(names.count)
        for name in names {
            guard seen.insert(name).inserted else { throw .duplicateEntry(entry: name) }
            parts.append(try cache.part(name))
        }
        self.parts = parts.sorted { ArchiveEntry.namePrecedes($0.name, $1.name) }
        self.names = seen
    }

    /// An archive of the shared assets and `entries`, sorted by name across both, as
    /// `ArchiveWriter.makeArchiveParts(_:sharedAssets:sharedNames:)` makes it.
    /// - Throws: `ArchiveError.duplicateEntry`, `.invalidEntryName` or `.writeFailed`.
    public func archiveParts(adding entries: [ArchiveEntry]) throws(ArchiveError) -> ArchiveParts {
        var own: [ZipRecords.Entry] = []
        own.reserveCapacity(entries.count)
        for entry in entries {
            guard !names.contains(entry.name), !own.contains(where: { $0.name == entry.name }) else {
                throw .duplicateEntry(entry: entry.name)
            }
            try ArchiveEntry.validate(name: entry.name)
            let (zip, record) = try ZipEntryRecord.make(entry)
            own.append(
                ZipRecords.Entry(name: record.name, local: [.own(zip[record.local])], central: zip[record.central]))
        }
        own.sort { ArchiveEntry.namePrecedes($0.name, $1.name) }
        var merged: [ZipRecords.Entry] = []
        merged.reserveCapacity(parts.count + own.count)
        var i = 0
        for entry in own {
            while i < parts.count, ArchiveEntry.namePrecedes(parts[i].name, entry.name) {
                merged.append(parts[i])
                i += 1
            }
            merged.append(entry)
        }
        merged += parts[i...]
        return ZipRecords.assembleParts(merged)
    }
}
