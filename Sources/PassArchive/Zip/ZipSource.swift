internal import CZip
import Glibc

/// Owns one reference to a libzip `zip_source_t`; `deinit` drops it with `zip_source_free`.
///
/// Ownership rule used throughout PassArchive: whenever libzip takes over a source (`zip_open_from_source`,
/// `zip_file_add` succeeding), `ZipSource` first calls `zip_source_keep`, so libzip holds its own reference and
/// this object keeps its own. On failure the extra reference is dropped again. The owner therefore always frees
/// exactly the one reference it created, whatever libzip did.
final class ZipSource {
    /// The `zip_source_t *`; only `ZipSource` and `ZipArchive` (same folder) touch it.
    let raw: OpaquePointer

    private init(raw: OpaquePointer) {
        self.raw = raw
    }

    deinit {
        zip_source_free(raw)
    }

    /// A buffer source holding a private `malloc` copy of `bytes`; libzip frees the copy with the source.
    static func copying(_ bytes: [UInt8]) throws(ZipFailure) -> ZipSource {
        // libzip drops zero-length fragments when it builds a buffer source, so a buffer given for an empty entry
        // would never be freed: an empty entry gets no buffer.
        if bytes.isEmpty { return try empty() }
        guard let copy = malloc(bytes.count) else {
            throw ZipFailure(code: ZIP_ER_MEMORY, message: "out of memory copying \(bytes.count) bytes")
        }
        bytes.withUnsafeBytes { buffer in
            if let base = buffer.baseAddress { memcpy(copy, base, buffer.count) }
        }
        let result: Result<OpaquePointer, ZipFailure> = ZipFailure.withError { error in
            if let source = zip_source_buffer_create(copy, zip_uint64_t(bytes.count), 1, error) {
                return .success(source)
            }
            return .failure(ZipFailure(error))
        }
        switch result {
        case .success(let source): return ZipSource(raw: source)
        case .failure(let failure):
            free(copy)  // libzip did not take the buffer
            throw failure
        }
    }

    /// A buffer source reading `memory` without copying. `memory` must stay valid and unchanged for the whole
    /// life of this source and of every archive opened on it (callers use it inside `withUnsafeBytes`).
    static func borrowing(_ memory: UnsafeRawBufferPointer) throws(ZipFailure) -> ZipSource {
        let result: Result<OpaquePointer, ZipFailure> = ZipFailure.withError { error in
            if let source = zip_source_buffer_create(memory.baseAddress, zip_uint64_t(memory.count), 0, error) {
                return .success(source)
            }
            return .failure(ZipFailure(error))
        }
        return ZipSource(raw: try result.get())
    }

    /// An empty buffer source: an empty entry, or the buffer a new archive is written into.
    static func empty() throws(ZipFailure) -> ZipSource {
        try borrowing(UnsafeRawBufferPointer(start: nil, count: 0))
    }

    /// Wraps a source that libzip created for us (e.g. `zip_source_zip`), taking over its reference.
    static func adopting(_ raw: OpaquePointer) -> ZipSource {
        ZipSource(raw: raw)
    }

    /// The libzip error stored on this source.
    var failure: ZipFailure {
        ZipFailure(zip_source_error(raw))
    }

    /// Reads the whole current content of the source (used after `zip_close` wrote the archive into it).
    func contents() throws(ZipFailure) -> [UInt8] {
        guard zip_source_open(raw) == 0 else { throw failure }
        defer { zip_source_close(raw) }
        guard zip_source_seek(raw, 0, SEEK_END) == 0 else { throw failure }
        let size = zip_source_tell(raw)
        guard size >= 0, zip_source_seek(raw, 0, SEEK_SET) == 0 else { throw failure }
        var readFailed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: Int(size)) { buffer, count in
            var done = 0
            while done < Int(size) {
                let got = zip_source_read(raw, buffer.baseAddress! + done, zip_uint64_t(Int(size) - done))
                if got <= 0 {
                    readFailed = got < 0 || done < Int(size)
                    break
                }
                done += Int(got)
            }
            count = done
        }
        if readFailed { throw failure }
        return bytes
    }
}
