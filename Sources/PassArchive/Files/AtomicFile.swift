import Glibc
import Synchronization

/// Writes files so that no reader ever sees half of one.
public enum AtomicFile {
    /// Writes `bytes` to `<path>.tmp-<random>` in the same folder, sets `mode`, `fsync`s, then `rename(2)`s it
    /// over `path` and `fsync`s the folder. On any error the temporary file is removed and `path` is untouched.
    /// - Parameters:
    ///   - bytes: the complete new content.
    ///   - path: the destination file; its folder must exist.
    ///   - mode: permission bits of the new file (applied exactly, not filtered by the umask).
    ///   - durable: `fsync` the file and its folder (default). Without it the rename is still atomic for readers,
    ///     but a power loss may lose the file; batch issuance, which re-checks files on `--resume`, skips it.
    /// - Throws: `ArchiveError.fileSystem` naming the path, the failing step and `errno`'s text.
    public static func write(_ bytes: [UInt8], to path: String, mode: UInt32 = 0o644, durable: Bool = true)
        throws(ArchiveError)
    {
        let result: Result<Void, ArchiveError> = bytes.withUnsafeBytes { memory in
            Result { () throws(ArchiveError) in try write([memory], to: path, mode: mode, durable: durable) }
        }
        try result.get()
    }

    /// `write(_:to:mode:durable:)` for an archive in pieces: written with `writev`, never joined in memory.
    public static func write(_ parts: ArchiveParts, to path: String, mode: UInt32 = 0o644, durable: Bool = true)
        throws(ArchiveError)
    {
        // `parts` holds every buffer its regions lie in until the write returns.
        try withExtendedLifetime(parts) { () throws(ArchiveError) in
            try write(parts.regions, to: path, mode: mode, durable: durable)
        }
    }

    /// Writes `regions` (memory the caller keeps alive for the call) in order.
    private static func write(_ regions: [UnsafeRawBufferPointer], to path: String, mode: UInt32, durable: Bool)
        throws(ArchiveError)
    {
        // Created with its final mode when the umask leaves that mode as it is (no fchmod then); otherwise
        // created private and given its mode before the rename.
        let createdWithMode = FileCreationMask.keeps(mode_t(mode))
        var temporary = ""
        var fd: Int32 = -1
        for _ in 0..<8 {
            temporary = temporaryName(for: path)
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, createdWithMode ? mode_t(mode) : 0o600)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw failure(temporary, "creating the temporary file") }
        TemporaryFiles.register(temporary)
        defer { TemporaryFiles.unregister(temporary) }
        var isOpen = true
        do throws(ArchiveError) {
            try writeAll(regions, to: fd, path: temporary)
            if !createdWithMode {
                guard fchmod(fd, mode_t(mode)) == 0 else { throw failure(temporary, "setting the mode of") }
            }
            if durable { guard fsync(fd) == 0 else { throw failure(temporary, "flushing") } }
            isOpen = false
            guard close(fd) == 0 else { throw failure(temporary, "closing") }
            guard rename(temporary, path) == 0 else { throw failure(path, "renaming the temporary file onto") }
        } catch {
            if isOpen { close(fd) }
            unlink(temporary)
            throw error
        }
        if durable { syncFolder(of: path) }
    }

    private static func writeAll(_ pieces: [UnsafeRawBufferPointer], to fd: Int32, path: String) throws(ArchiveError) {
        var index = 0, skip = 0  // the next piece to write and how much of it is already written
        while index < pieces.count {
            let batch = min(pieces.count - index, 512)
            var vectors: [iovec] = []
            vectors.reserveCapacity(batch)
            for (k, piece) in pieces[index..<(index + batch)].enumerated() {
                let start = k == 0 ? skip : 0
                vectors.append(
                    iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: piece.baseAddress.map { $0 + start }),
                        iov_len: piece.count - start))
            }
            let wrote = writev(fd, vectors, Int32(vectors.count))
            if wrote < 0 {
                if errno == EINTR { continue }
                throw .fileSystem(path: path, operation: "writing", reason: FileBytes.errnoText(errno))
            }
            var left = wrote
            while index < pieces.count, left >= pieces[index].count - skip {
                left -= pieces[index].count - skip
                index += 1
                skip = 0
            }
            skip += left
        }
    }

    /// Makes the rename durable; a failure here does not undo the write, so it is ignored.
    private static func syncFolder(of path: String) {
        let folder: String
        if let slash = path.lastIndex(of: "/") {
            folder = slash == path.startIndex ? "/" : String(path[..<slash])
        } else {
            folder = "."
        }
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    private static func failure(_ path: String, _ operation: String) -> ArchiveError {
        .fileSystem(path: path, operation: operation, reason: FileBytes.errnoText())
    }

    /// `<path>.tmp-<process tag>-<counter>`: unique within the process by the counter, and apart from other
    /// processes' by a random tag drawn once (`O_EXCL` catches the rare clash), so no random bytes are drawn per
    /// file.
    static func temporaryName(for path: String) -> String {
        path + ".tmp-" + processTag + "-" + String(counter.wrappingAdd(1, ordering: .relaxed).oldValue, radix: 16)
    }

    private static let processTag: String = {
        var generator = SystemRandomNumberGenerator()
        let hex = String(generator.next() as UInt32, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }()
    private static let counter = Atomic<UInt64>(0)
}
