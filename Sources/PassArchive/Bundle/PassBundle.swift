/// `.pkpasses` bundles: one download that adds several passes to Wallet at once.
public enum PassBundle {
    /// The most passes Wallet accepts in one bundle.
    public static let maxPasses = 10

    /// Zips signed passes into a `.pkpasses` bundle, in the given order, each stored (a .pkpass is already
    /// compressed). A name without the `.pkpass` extension gets it appended.
    /// - Parameter passes: entry name and bytes of each signed .pkpass.
    /// - Returns: the bundle's bytes.
    /// - Throws: `ArchiveError.emptyBundle`, `.tooManyPasses` (more than `maxPasses`), `.duplicateEntry`,
    ///   `.invalidEntryName` or `.writeFailed`.
    public static func make(_ passes: [(name: String, bytes: [UInt8])]) throws(ArchiveError) -> [UInt8] {
        try makeParts(passes.map { ($0.name, ArchiveParts($0.bytes)) }).bytes
    }

    /// `make(_:)` for passes held as pieces (`IssuedPass.archiveParts`), returned as pieces for
    /// `AtomicFile.write(_:to:)`: no pass is copied, into the bundle or through libzip. The records carry the
    /// fields libzip writes (`ZipEntryRecord`).
    public static func makeParts(_ passes: [(name: String, parts: ArchiveParts)]) throws(ArchiveError) -> ArchiveParts {
        guard !passes.isEmpty else { throw .emptyBundle }
        guard passes.count <= maxPasses else { throw .tooManyPasses(count: passes.count, limit: maxPasses) }
        var seen = Set<String>()
        var entries: [ZipRecords.Entry] = []
        for pass in passes {
            let name = pass.name.hasSuffix(".pkpass") ? pass.name : pass.name + ".pkpass"
            try ArchiveEntry.validate(name: name)
            guard seen.insert(name).inserted else { throw .duplicateEntry(entry: name) }
            let headers = ZipEntryRecord.storedHeaders(name: name, data: pass.parts)
            entries.append(
                ZipRecords.Entry(
                    name: name, local: [.own(headers.local[...])] + pass.parts.pieces.map { .shared($0) },
                    central: headers.central[...]))
        }
        return ZipRecords.assembleParts(entries)
    }

    /// The `.pkpass` files inside a read `.pkpasses` bundle, in archive order, skipping folders and junk.
    /// Check `count` against `maxPasses` to report an oversized bundle.
    /// - Parameter bundle: the bundle, opened with `ArchiveReader`.
    public static func passes(in bundle: ArchiveReader) -> [ArchiveEntry] {
        bundle.files.filter { $0.name.lowercased().hasSuffix(".pkpass") && !ArchiveEntry.isJunk($0.name) }
    }
}
