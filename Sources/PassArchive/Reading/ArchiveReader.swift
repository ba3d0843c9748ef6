internal import CZip

/// A zip archive read from memory: its entry names and the content of every entry.
///
/// Everything is read and CRC-checked once, in `init`, and kept as plain values: the reader is an immutable
/// `Sendable` value that holds no libzip handle. Damaged input never crashes: an archive that cannot be opened
/// throws from `init`; an entry that cannot be read (CRC error, bad compressed data, encryption, too large) is
/// listed in `entryNames` and `unreadableEntries`, and `read(_:)` throws its error.
public struct ArchiveReader: Sendable {
    /// Default limit on the uncompressed size of all entries together (guards against zip bombs).
    public static let defaultSizeLimit = 512 * 1024 * 1024

    /// The name used in messages (usually the file path).
    public let name: String
    /// Entry names as stored, in archive order, including directory entries (ending in `/`) and junk
    /// such as `__MACOSX/…` or `.DS_Store`.
    public let entryNames: [String]
    private let contents: [String: Content]

    private enum Content: Sendable {
        case file([UInt8])
        case directory
        case unreadable(ArchiveError)
    }

    /// Opens and reads a zip held in memory.
    /// - Parameters:
    ///   - bytes: the whole zip file.
    ///   - name: how to call the file in error messages (e.g. its path).
    ///   - sizeLimit: most uncompressed bytes to accept for all entries together.
    /// - Throws: `ArchiveError.emptyInput`, `.notAZip` (not a zip, or truncated) or `.damaged`.
    public init(bytes: [UInt8], name: String, sizeLimit: Int = ArchiveReader.defaultSizeLimit) throws(ArchiveError) {
        self.name = name
        guard !bytes.isEmpty else { throw .emptyInput(file: name) }  // libzip would open it as an empty archive
        let archive: ZipArchive
        do throws(ZipFailure) {
            archive = try ZipArchive(source: try ZipSource.copying(bytes), flags: ZIP_RDONLY)
        } catch {
            if error.code == ZIP_ER_NOZIP { throw .notAZip(file: name, reason: error.message) }
            throw .damaged(file: name, reason: error.message)
        }
        var names: [String] = []
        var contents: [String: Content] = [:]
        var budget = sizeLimit
        for index in 0..<archive.count {
            let entry = archive.name(at: index) ?? "<entry \(index) without a readable name>"
            names.append(entry)
            guard contents[entry] == nil else { continue }  // a damaged zip may repeat a name: keep the first
            if entry.hasSuffix("/") {
                contents[entry] = .directory
                continue
            }
            do throws(ZipFailure) {
                let data = try archive.read(at: index, limit: budget)
                budget -= data.count
                contents[entry] = .file(data)
            } catch {
                contents[entry] = .unreadable(
                    error.code == ZipFailure.tooLargeCode
                        ? .entryTooLarge(file: name, entry: entry, limit: sizeLimit)
                        : .entryUnreadable(file: name, entry: entry, reason: error.message))
            }
        }
        entryNames = names
        self.contents = contents
    }

    /// Whether the archive has an entry with exactly this name (file or directory).
    public func contains(_ entry: String) -> Bool {
        contents[entry] != nil
    }

    /// The uncompressed bytes of one entry.
    /// - Parameter entry: the exact entry name, e.g. `pass.json` or `en.lproj/pass.strings`.
    /// - Throws: `ArchiveError.entryNotFound` (also for directory entries), `.entryUnreadable` or `.entryTooLarge`.
    public func read(_ entry: String) throws(ArchiveError) -> [UInt8] {
        switch contents[entry] {
        case .file(let bytes): return bytes
        case .unreadable(let error): throw error
        case .directory, nil:
            throw .entryNotFound(file: name, entry: entry, available: entryNames.filter { !$0.hasSuffix("/") })
        }
    }

    /// All readable non-directory entries with their bytes, in archive order (first occurrence of each name).
    public var files: [ArchiveEntry] {
        var seen = Set<String>()
        return entryNames.compactMap { entry in
            guard seen.insert(entry).inserted, case .file(let bytes) = contents[entry] else { return nil }
            return ArchiveEntry(name: entry, bytes: bytes)
        }
    }

    /// The errors of entries whose data could not be read, in archive order.
    public var unreadableEntries: [ArchiveError] {
        var seen = Set<String>()
        return entryNames.compactMap { entry in
            guard seen.insert(entry).inserted, case .unreadable(let error) = contents[entry] else { return nil }
            return error
        }
    }
}

extension ArchiveReader {
    /// Reads and opens a zip file from disk.
    /// - Parameter path: the file to read; also the name used in messages.
    /// - Throws: `ArchiveError.fileSystem` when the file cannot be read, else as `init(bytes:name:sizeLimit:)`.
    public init(contentsOf path: String, sizeLimit: Int = ArchiveReader.defaultSizeLimit) throws(ArchiveError) {
        try self.init(bytes: try FileBytes.read(path), name: path, sizeLimit: sizeLimit)
    }
}
