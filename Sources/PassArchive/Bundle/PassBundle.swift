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
        guard !passes.isEmpty else { throw .emptyBundle }
        guard passes.count <= maxPasses else { throw .tooManyPasses(count: passes.count, limit: maxPasses) }
        let entries = passes.map { pass in
            ArchiveEntry(name: pass.name.hasSuffix(".pkpass") ? pass.name : pass.name + ".pkpass", bytes: pass.bytes)
        }
        return try ArchiveWriter.makeArchive(entries)
    }

    /// The `.pkpass` files inside a read `.pkpasses` bundle, in archive order, skipping folders and junk.
    /// Check `count` against `maxPasses` to report an oversized bundle.
    /// - Parameter bundle: the bundle, opened with `ArchiveReader`.
    public static func passes(in bundle: ArchiveReader) -> [ArchiveEntry] {
        bundle.files.filter { $0.name.lowercased().hasSuffix(".pkpass") && !ArchiveEntry.isJunk($0.name) }
    }
}
