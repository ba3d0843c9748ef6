internal import CZip

/// A zip archive read from memory: its entry names and the content of every entry.
///
/// Everything is read and CRC-checked once, in `init`, and kept as plain values: the reader is an immutable
/// `Sendable` value that holds no libzip handle. Damaged input never crashes: an archive that cannot be opened
/// throws from `init`; an entry that cannot be read (CRC error, bad compressed data, encryption, too large) is
/// listed in `entryNames` and `unreadableEntries`, and `read(_:)` throws its error.
public struct ArchiveReader: Sendable {
    /// How a NUL byte inside an entry name is shown (U+2400 SYMBOL FOR NULL).
    public static let nulMark = "\u{2400}"
    /// Default limit on the uncompressed size of all entries together (guards against zip bombs).
    public static let defaultSizeLimit = ArchiveLimits.pass.maxTotalBytes

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

    /// Opens and reads a zip held in memory, with the `.pkpass` entry count and at most `sizeLimit` bytes in all
    /// (16 MiB per entry, text or not: for archives PassMint made itself or a caller already sized).
    /// - Parameters:
    ///   - bytes: the whole zip file.
    ///   - name: how to call the file in error messages (e.g. its path).
    ///   - sizeLimit: most uncompressed bytes to accept for all entries together.
    /// - Throws: `ArchiveError.emptyInput`, `.notAZip` (not a zip, or truncated), `.damaged` or `.tooManyEntries`.
    public init(bytes: [UInt8], name: String, sizeLimit: Int = ArchiveReader.defaultSizeLimit) throws(ArchiveError) {
        var limits = ArchiveLimits.pass
        limits.maxTotalBytes = sizeLimit
        limits.maxEntryBytes = min(limits.maxEntryBytes, sizeLimit)
        limits.maxTextEntryBytes = limits.maxEntryBytes
        try self.init(bytes: bytes, name: name, limits: limits)
    }

    /// Opens and reads a zip held in memory within `limits`. An entry over its limit, a symbolic link, or an
    /// entry whose name holds a NUL byte is listed in `unreadableEntries`, never read past the limit.
    /// - Throws: `ArchiveError.emptyInput`, `.notAZip` (not a zip, or truncated), `.damaged`, or `.tooManyEntries`
    ///   (checked before any entry is inflated).
    public init(bytes: [UInt8], name: String, limits: ArchiveLimits) throws(ArchiveError) {
        self.name = name
        guard !bytes.isEmpty else { throw .emptyInput(file: name) }  // libzip would open it as an empty archive
        // libzip reads the caller's buffer in place: a bundle is not held twice while its passes are inflated.
        let result = bytes.withUnsafeBytes { memory in
            Self.readEntries(memory, bytes: bytes, name: name, limits: limits)
        }
        let (names, contents) = try result.get()
        entryNames = names
        self.contents = contents
    }

    /// Opens the zip in `memory` (the bytes of `bytes`) and reads every entry within `limits`.
    private static func readEntries(
        _ memory: UnsafeRawBufferPointer, bytes: [UInt8], name: String, limits: ArchiveLimits
    ) -> Result<([String], [String: Content]), ArchiveError> {
        let archive: ZipArchive
        do throws(ZipFailure) {
            archive = try ZipArchive(source: try ZipSource.borrowing(memory), flags: ZIP_RDONLY)
        } catch {
            if error.code == ZIP_ER_NOZIP { return .failure(.notAZip(file: name, reason: error.message)) }
            return .failure(.damaged(file: name, reason: error.message))
        }
        guard archive.count <= limits.maxEntries else {
            return .failure(.tooManyEntries(file: name, count: archive.count, limit: limits.maxEntries))
        }
        // libzip hands names out as C strings, so a name with a NUL byte would read as its first part
        // ("pass.json\0.png" as "pass.json"); the central directory's own name lengths tell them apart.
        let nulNames = Self.namesWithNUL(bytes)
        var names: [String] = []
        var contents: [String: Content] = [:]
        var budget = limits.maxTotalBytes
        for index in 0..<archive.count {
            var entry = archive.name(at: index) ?? "<entry \(index) without a readable name>"
            if let shown = nulNames[index] {
                entry = shown
                names.append(entry)
                contents[entry] =
                    contents[entry]
                    ?? .unreadable(
                        .entryRefused(
                            file: name, entry: entry,
                            reason: "its name contains a NUL byte, which no file name may hold"))
                continue
            }
            names.append(entry)
            guard contents[entry] == nil else { continue }  // a damaged zip may repeat a name: keep the first
            if entry.hasSuffix("/") {
                contents[entry] = .directory
                continue
            }
            if archive.isSymbolicLink(at: index) {
                contents[entry] = .unreadable(
                    .entryRefused(
                        file: name, entry: entry, reason: "it is a symbolic link; an archive entry must be a plain file"
                    ))
                continue
            }
            let entryLimit = min(limits.limit(for: entry), budget)
            // The limit a message names: the entry's own, or the whole archive's once that is the tighter one.
            let namedLimit = budget < limits.limit(for: entry) ? limits.maxTotalBytes : entryLimit
            do throws(ZipFailure) {
                let data = try archive.read(at: index, limit: entryLimit)
                budget -= data.count
                contents[entry] = .file(data)
            } catch {
                contents[entry] = .unreadable(
                    error.code == ZipFailure.tooLargeCode
                        ? .entryTooLarge(file: name, entry: entry, limit: namedLimit)
                        : .entryUnreadable(file: name, entry: entry, reason: error.message))
            }
        }
        return .success((names, contents))
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
    /// The entries (by index in the central directory) whose stored name holds a NUL byte, each with its name
    /// as shown in messages (NUL written as `nulMark`). Empty when the central directory cannot be walked simply
    /// (libzip then judges the archive on its own).
    static func namesWithNUL(_ zip: [UInt8]) -> [Int: String] {
        guard zip.contains(0), zip.count >= 22 else { return [:] }
        func u16(_ i: Int) -> Int { Int(zip[i]) | Int(zip[i + 1]) << 8 }
        func u32(_ i: Int) -> Int { u16(i) | u16(i + 2) << 16 }
        var end = zip.count - 22
        let lowest = max(0, zip.count - 22 - 65_535)
        while end >= lowest, u32(end) != 0x0605_4B50 { end -= 1 }
        guard end >= lowest else { return [:] }
        var cursor = u32(end + 16)
        var found: [Int: String] = [:]
        for index in 0..<u16(end + 10) {
            guard cursor >= 0, cursor + 46 <= zip.count, u32(cursor) == 0x0201_4B50 else { return found }
            let length = u16(cursor + 28)
            guard cursor + 46 + length <= zip.count else { return found }
            let raw = zip[(cursor + 46)..<(cursor + 46 + length)]
            if raw.contains(0) {
                found[index] = raw.split(separator: 0, omittingEmptySubsequences: false)
                    .map { String(decoding: $0, as: UTF8.self) }.joined(separator: ArchiveReader.nulMark)
            }
            cursor += 46 + length + u16(cursor + 30) + u16(cursor + 32)
        }
        return found
    }

    /// Reads and opens a zip file from disk.
    /// - Parameter path: the file to read; also the name used in messages.
    /// - Throws: `ArchiveError.fileSystem` when the file cannot be read, else as `init(bytes:name:sizeLimit:)`.
    public init(contentsOf path: String, sizeLimit: Int = ArchiveReader.defaultSizeLimit) throws(ArchiveError) {
        try self.init(bytes: try FileBytes.read(path), name: path, sizeLimit: sizeLimit)
    }
}
