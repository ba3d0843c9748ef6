/// Everything that can go wrong while reading or writing a .pkpass / .pkpasses archive.
///
/// Each case carries the file or entry it is about and, where libzip reported the problem, libzip's own
/// `zip_error_strerror` text. `description` says what failed and what to do next.
public enum ArchiveError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The input had no bytes at all.
    case emptyInput(file: String)
    /// The input is not a zip archive (or is cut off before its central directory).
    case notAZip(file: String, reason: String)
    /// The zip archive is inconsistent or cannot be opened.
    case damaged(file: String, reason: String)
    /// The archive has no entry with this name.
    case entryNotFound(file: String, entry: String, available: [String])
    /// The entry exists but its data cannot be read (CRC error, bad compressed data, encryption, ...).
    case entryUnreadable(file: String, entry: String, reason: String)
    /// The entry is larger than the reader's limit.
    case entryTooLarge(file: String, entry: String, limit: Int)
    /// The entry is refused without reading it (a symbolic link, a name with a NUL byte).
    case entryRefused(file: String, entry: String, reason: String)
    /// The archive has more entries than the reader's limit (checked before anything is inflated).
    case tooManyEntries(file: String, count: Int, limit: Int)
    /// A name given to the writer cannot be used as a zip entry name.
    case invalidEntryName(entry: String, reason: String)
    /// The same entry name was given twice to the writer.
    case duplicateEntry(entry: String)
    /// libzip failed while building an archive (`entry` is nil when no single entry was at fault).
    case writeFailed(entry: String?, reason: String)
    /// `sharedNames` named an asset that the `AssetCache` does not hold.
    case assetNotCached(entry: String, cached: [String])
    /// A file-system call failed.
    case fileSystem(path: String, operation: String, reason: String)
    /// A .pkpasses bundle was asked to hold more passes than Wallet accepts.
    case tooManyPasses(count: Int, limit: Int)
    /// A .pkpasses bundle was asked to hold no pass at all.
    case emptyBundle

    public var description: String {
        switch self {
        case .emptyInput(let file):
            return "'\(file)' is empty (0 bytes), not a zip archive; re-download or re-create it"
        case .notAZip(let file, let reason):
            return "'\(file)' is not a zip archive or is truncated (libzip: \(reason)); "
                + "a .pkpass must be a complete zip file, re-download or re-create it"
        case .damaged(let file, let reason):
            return "'\(file)' is a damaged zip archive (libzip: \(reason)); re-download or re-create it"
        case .entryNotFound(let file, let entry, let available):
            let list = available.isEmpty ? "no entries" : available.joined(separator: ", ")
            return "'\(file)' has no entry '\(entry)' (it contains: \(list)); add '\(entry)' and rebuild the archive"
        case .entryUnreadable(let file, let entry, let reason):
            return "cannot read entry '\(entry)' of '\(file)' (libzip: \(reason)); "
                + "the archive is damaged or uses an unsupported feature, re-create it"
        case .entryTooLarge(let file, let entry, let limit):
            return "entry '\(entry)' of '\(file)' is larger than the \(limit)-byte limit; "
                + "this is not a normal pass file, check where the archive came from"
        case .entryRefused(let file, let entry, let reason):
            return "entry '\(entry)' of '\(file)' is refused: \(reason); re-create the archive from plain files"
        case .tooManyEntries(let file, let count, let limit):
            return "'\(file)' has \(count) entries, more than the \(limit) a pass or bundle may hold; "
                + "this is not a normal pass archive, check where it came from"
        case .invalidEntryName(let entry, let reason):
            return "cannot use '\(entry)' as an archive entry name: \(reason); rename the file"
        case .duplicateEntry(let entry):
            return "entry '\(entry)' was given twice; each file name in an archive must be unique"
        case .writeFailed(let entry, let reason):
            if let entry {
                return "cannot add '\(entry)' to the archive (libzip: \(reason))"
            }
            return "cannot write the archive (libzip: \(reason))"
        case .assetNotCached(let entry, let cached):
            let list = cached.isEmpty ? "nothing" : cached.joined(separator: ", ")
            return "shared asset '\(entry)' is not in the asset cache (it holds: \(list)); "
                + "add it to the AssetCache or pass it as a normal entry"
        case .fileSystem(let path, let operation, let reason):
            return "\(operation) '\(path)' failed: \(reason); check that the folder exists and is writable"
        case .tooManyPasses(let count, let limit):
            return "a .pkpasses bundle holds at most \(limit) passes, got \(count); split them into several bundles"
        case .emptyBundle:
            return "a .pkpasses bundle needs at least one pass"
        }
    }
}
