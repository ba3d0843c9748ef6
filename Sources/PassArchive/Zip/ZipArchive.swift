internal import CZip
import Glibc
import Synchronization

/// Owns one libzip `zip_t`. `deinit` discards it unless `close()` already wrote and freed it.
/// Not thread-safe (libzip archives are not): each use creates, uses and drops its own instance.
final class ZipArchive {
    private let raw: OpaquePointer
    /// The source the archive was opened on; kept so that its bytes can be read after `close()`.
    let source: ZipSource
    private var isClosed = false

    /// libzip before 1.9 fills the capability masks `zip_open_from_source` checks into function-level statics on
    /// first use, one after the other, so the first two archives a process opens at once can see a writable buffer
    /// source as read-only and fail with "Read-only archive" (nih-at/libzip#289; Debian 12 ships 1.7.3). A batch's
    /// first two passes did, once. Opening takes microseconds, so it is serialised.
    private static let openLock = Mutex(())

    /// Opens an archive on `source` (`ZIP_RDONLY` to read, `ZIP_TRUNCATE` to write a new one).
    init(source: ZipSource, flags: Int32) throws(ZipFailure) {
        zip_source_keep(source.raw)  // the archive gets its own reference (see ZipSource)
        let result: Result<OpaquePointer, ZipFailure> = ZipFailure.withError { error in
            let address = Self.openLock.withLock { _ in UInt(bitPattern: zip_open_from_source(source.raw, flags, error))
            }
            if let archive = OpaquePointer(bitPattern: address) { return .success(archive) }
            return .failure(ZipFailure(error))
        }
        switch result {
        case .success(let archive):
            raw = archive
            self.source = source
        case .failure(let failure):
            zip_source_free(source.raw)  // undo the keep: libzip did not take the source
            throw failure
        }
    }

    deinit {
        if !isClosed { zip_discard(raw) }
    }

    private var failure: ZipFailure {
        ZipFailure(zip_get_error(raw))
    }

    // MARK: Writing

    /// Adds `source` as entry `name` and sets its compression and modification time.
    /// - Returns: the new entry's index.
    @discardableResult
    func add(name: String, source entrySource: ZipSource, method: Int32, mtime: time_t) throws(ZipFailure) -> UInt64 {
        zip_source_keep(entrySource.raw)
        let index = zip_file_add(raw, name, entrySource.raw, ZIP_FL_ENC_UTF_8)
        guard index >= 0 else {
            zip_source_free(entrySource.raw)  // undo the keep: on failure libzip does not take the source
            throw failure
        }
        let at = zip_uint64_t(index)
        guard zip_set_file_compression(raw, at, method, 0) == 0 else { throw failure }
        guard zip_file_set_mtime(raw, at, mtime, 0) == 0 else { throw failure }
        return at
    }

    /// Writes the archive into its source and frees the `zip_t`.
    func close() throws(ZipFailure) {
        guard zip_close(raw) == 0 else { throw failure }  // on failure the archive is still open: deinit discards
        isClosed = true
    }

    // MARK: Reading

    /// Number of entries.
    var count: Int {
        let n = zip_get_num_entries(raw, 0)
        return n < 0 ? 0 : Int(n)
    }

    /// Name of entry `index` as UTF-8 (libzip converts CP437 names), or nil when libzip cannot give one.
    func name(at index: Int) -> String? {
        guard let name = zip_get_name(raw, zip_uint64_t(index), ZIP_FL_ENC_GUESS) else { return nil }
        return String(cString: name)
    }

    /// True when entry `index` was stored by a Unix zip as a symbolic link (mode S_IFLNK in its external
    /// attributes): extracting it would point outside the archive.
    func isSymbolicLink(at index: Int) -> Bool {
        var system: zip_uint8_t = 0
        var attributes: zip_uint32_t = 0
        guard zip_file_get_external_attributes(raw, zip_uint64_t(index), 0, &system, &attributes) == 0,
            system == zip_uint8_t(ZIP_OPSYS_UNIX)
        else { return false }
        return (attributes >> 16) & 0o170000 == 0o120000
    }

    /// Compression method (`ZIP_CM_*`) of entry `index`, as stored.
    func method(at index: Int) throws(ZipFailure) -> Int32 {
        var stat = zip_stat_t()
        zip_stat_init(&stat)
        guard zip_stat_index(raw, zip_uint64_t(index), 0, &stat) == 0 else { throw failure }
        return Int32(stat.comp_method)
    }

    /// Reads and decompresses entry `index`, checking its CRC. Stops with `ZipFailure.tooLargeCode` past `limit` bytes.
    func read(at index: Int, limit: Int) throws(ZipFailure) -> [UInt8] {
        guard let file = zip_fopen_index(raw, zip_uint64_t(index), 0) else { throw failure }
        var bytes: [UInt8] = []
        var stat = zip_stat_t()
        zip_stat_init(&stat)
        // Reserve what the directory claims, but never trust a damaged header for more than 64 MiB up front.
        if zip_stat_index(raw, zip_uint64_t(index), 0, &stat) == 0, stat.valid & UInt64(ZIP_STAT_SIZE) != 0 {
            bytes.reserveCapacity(Int(min(stat.size, UInt64(limit), 64 << 20)))
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var readError: ZipFailure?
        while true {
            let got = chunk.withUnsafeMutableBytes { zip_fread(file, $0.baseAddress, zip_uint64_t($0.count)) }
            if got < 0 {
                readError = ZipFailure(zip_file_get_error(file))
                break
            }
            if got == 0 { break }
            if bytes.count + Int(got) > limit {
                readError = ZipFailure(code: ZipFailure.tooLargeCode, message: "entry exceeds the \(limit)-byte limit")
                break
            }
            bytes.append(contentsOf: chunk[0..<Int(got)])
        }
        let closeCode = zip_fclose(file)
        if let readError { throw readError }
        if closeCode != 0 {
            throw ZipFailure.withError { error in
                zip_error_init_with_code(error, closeCode)
                return ZipFailure(error)
            }
        }
        return bytes
    }
}
