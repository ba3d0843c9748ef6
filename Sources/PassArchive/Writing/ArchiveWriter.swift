internal import CZip
import Glibc

/// Writes zip archives entirely in memory, deterministically.
///
/// Entries are written at the root as named (names may contain folders such as `en.lproj/pass.strings`), in the
/// given order, with one fixed timestamp (2001-01-01 00:00:00), no extra fields and no directory entries, so
/// identical input gives byte-identical output. PNG and other already-compressed files are stored, the rest
/// deflated (`Compression.forEntry`).
public struct ArchiveWriter {
    /// Builds a zip of `entries`, in the order given (PassMint passes them sorted by name).
    /// - Parameter entries: files to write; names must be unique relative paths.
    /// - Returns: the zip file's bytes.
    /// - Throws: `ArchiveError.invalidEntryName`, `.duplicateEntry`, or `.writeFailed` with libzip's text.
    public static func makeArchive(_ entries: [ArchiveEntry]) throws(ArchiveError) -> [UInt8] {
        var seen = Set<String>()
        for entry in entries {
            try ArchiveEntry.validate(name: entry.name)
            guard seen.insert(entry.name).inserted else { throw .duplicateEntry(entry: entry.name) }
        }
        if entries.isEmpty { return emptyArchive }  // libzip removes an empty archive instead of writing one
        let mtime = ArchiveClock.fixedModificationTime()
        do throws(ZipFailure) {
            let archive = try ZipArchive(source: try ZipSource.empty(), flags: ZIP_TRUNCATE)
            for entry in entries {
                do throws(ZipFailure) {
                    try archive.add(
                        name: entry.name, source: try ZipSource.copying(entry.bytes),
                        method: Compression.forEntry(entry.name).zipMethod, mtime: mtime)
                } catch {
                    var failure = error
                    failure.entry = entry.name
                    throw failure
                }
            }
            try archive.close()
            return try archive.source.contents()
        } catch {
            throw .writeFailed(entry: error.entry, reason: error.message)
        }
    }

    /// The bytes of a zip with no entries (just the end-of-central-directory record).
    static let emptyArchive: [UInt8] = [0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18)
}

extension Compression {
    /// libzip's `ZIP_CM_*` value.
    var zipMethod: Int32 {
        switch self {
        case .store: return ZIP_CM_STORE
        case .deflate: return ZIP_CM_DEFLATE
        }
    }
}
