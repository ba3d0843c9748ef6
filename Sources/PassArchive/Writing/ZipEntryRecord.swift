internal import CDeflate
import Synchronization

/// One archive entry written as zip records by PassMint itself, for the few small per-pass files (pass.json,
/// manifest.json, signature, per-record pass.strings) of an archive whose template assets come from an
/// `AssetCache`. Small ones are stored (`storedUpTo`), larger ones deflated. The headers carry the same fields libzip writes for its entries (made by 6.3 on Unix, DOS time
/// 2001-01-01 00:00, mode 0666, no extra fields, no data descriptor), so the archive is uniform.
///
/// Why not libzip for these: a libzip deflate stream sets up hundreds of KB of zlib state per entry (level 9,
/// largest window and hash) and clears it, which for a 2 KB pass.json costs more than compressing it. Here an
/// entry large enough to deflate is compressed by libdeflate in one call, in fewer instructions and smaller
/// (figures in `Benchmarks/NOTES.md`); the output is ordinary raw deflate.
enum ZipEntryRecord {
    /// The fastest level: these files are a few KB (higher levels barely shrink them), and for
    /// inputs this small the fixed per-block work dominates at higher levels.
    static let level: Int32 = 1
    /// Entries up to this size are stored, not deflated: deflating costs a fixed setup per call (libdeflate clears
    /// its match-finder tables, more than it spends compressing a few KB of JSON) that, per pass, outweighs the
    /// kilobyte or two it saves; a large pass.json or pass.strings is still deflated.
    static let storedUpTo = 8 * 1024
    /// DOS date of 2001-01-01 (see `ArchiveClock`), time 00:00:00.
    static let dosDate: UInt16 = (21 << 9) | (1 << 5) | 1
    static let dosTime: UInt16 = 0

    /// A buffer holding the entry's local record followed by its central-directory header (local-header
    /// offset 0, set by `ZipRecords.assembleParts`), and where each lies.
    static func make(_ entry: ArchiveEntry) throws(ArchiveError) -> (zip: [UInt8], record: ZipRecord) {
        let bytes = entry.bytes
        var flags: UInt16 = 0
        var method: UInt16 = 0
        var data = bytes
        if bytes.count > storedUpTo, Compression.forEntry(entry.name) == .deflate {
            guard let deflated = deflateRaw(bytes) else {
                throw .writeFailed(
                    entry: entry.name,
                    reason:
                        "libdeflate could not compress \(bytes.count) bytes (out of memory?); free memory or use fewer parallel jobs and retry"
                )
            }
            method = 8
            data = deflated
            flags |= 0x0004  // bits 1-2 = 10: deflated with the "fast" option
        }
        let crc = bytes.withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, $0.count) }
        let headers = Self.headers(
            name: entry.name, flags: flags, method: method, crc: crc, compressedSize: data.count, size: bytes.count)
        var out = headers.local
        out.reserveCapacity(headers.local.count + data.count + headers.central.count)
        out += data
        let localEnd = out.count
        out += headers.central
        return (out, ZipRecord(name: entry.name, local: 0..<localEnd, central: localEnd..<out.count))
    }

    /// A stored entry whose data stays where it is (the pieces of a finished .pkpass inside a bundle): its local
    /// header and its central-directory header (local-header offset 0, to be set), CRC-32 taken over the pieces.
    static func storedHeaders(name: String, data: ArchiveParts) -> (local: [UInt8], central: [UInt8]) {
        var crc: UInt32 = 0
        for piece in data.pieces {
            crc = piece.withUnsafeBytes { libdeflate_crc32(crc, $0.baseAddress, $0.count) }
        }
        return headers(name: name, flags: 0, method: 0, crc: crc, compressedSize: data.count, size: data.count)
    }

    /// The local header (without the data) and the central-directory header of one entry, with the fields
    /// libzip writes (general-purpose bit 11 added for a non-ASCII name); the central header's local-header
    /// offset is 0.
    private static func headers(
        name entryName: String, flags: UInt16, method: UInt16, crc: UInt32, compressedSize: Int, size: Int
    ) -> (local: [UInt8], central: [UInt8]) {
        let name = Array(entryName.utf8)
        let flags = name.allSatisfy { $0 < 0x80 } ? flags : flags | 0x0800  // bit 11: the name is UTF-8
        let needed: UInt16 = method == 8 ? 20 : 10
        var local: [UInt8] = []
        local.reserveCapacity(30 + name.count)
        ZipRecords.append32(&local, 0x0403_4B50)
        for v in [needed, flags, method, dosTime, dosDate] { ZipRecords.append16(&local, v) }
        ZipRecords.append32(&local, crc)
        ZipRecords.append32(&local, UInt32(compressedSize))
        ZipRecords.append32(&local, UInt32(size))
        ZipRecords.append16(&local, UInt16(name.count))
        ZipRecords.append16(&local, 0)
        local += name
        var central: [UInt8] = []
        central.reserveCapacity(46 + name.count)
        ZipRecords.append32(&central, 0x0201_4B50)
        for v in [0x033F, needed, flags, method, dosTime, dosDate] as [UInt16] { ZipRecords.append16(&central, v) }
        ZipRecords.append32(&central, crc)
        ZipRecords.append32(&central, UInt32(compressedSize))
        ZipRecords.append32(&central, UInt32(size))
        for v in [UInt16(name.count), 0, 0, 0, 0] as [UInt16] { ZipRecords.append16(&central, v) }
        ZipRecords.append32(&central, 0o100666 << 16)
        ZipRecords.append32(&central, 0)
        central += name
        return (local, central)
    }

    /// Raw deflate (no zlib header); nil if libdeflate could not allocate its compressor.
    static func deflateRaw(_ input: [UInt8]) -> [UInt8]? {
        compressors.compress(input)
    }

    private static let compressors = DeflateCompressors(level: level)

}

/// Owns one `libdeflate_compressor` (freed in deinit). A compressor is used by one thread at a time.
// @unchecked Sendable: the pool hands each compressor to one caller at a time; the mutex orders the hand-over.
private final class DeflateCompressor: @unchecked Sendable {
    private let raw: OpaquePointer

    init?(level: Int32) {
        guard let raw = libdeflate_alloc_compressor(level) else { return nil }
        self.raw = raw
    }

    deinit {
        libdeflate_free_compressor(raw)
    }

    /// All of `input` as raw deflate.
    func compress(_ input: [UInt8]) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: libdeflate_deflate_compress_bound(raw, input.count))
        let written = input.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { target in
                libdeflate_deflate_compress(raw, source.baseAddress, source.count, target.baseAddress, target.count)
            }
        }
        guard written > 0 || input.isEmpty else { return nil }
        output.removeLast(output.count - written)
        return output
    }
}

/// Idle compressors, one per thread compressing at the same moment (allocating one costs about a quarter of
/// compressing a pass.json, so they are kept).
private final class DeflateCompressors: Sendable {
    private let level: Int32
    private let idle = Mutex<[DeflateCompressor]>([])

    init(level: Int32) {
        self.level = level
    }

    func compress(_ input: [UInt8]) -> [UInt8]? {
        guard let compressor = idle.withLock({ $0.popLast() }) ?? DeflateCompressor(level: level) else { return nil }
        defer { idle.withLock { $0.append(compressor) } }
        return compressor.compress(input)
    }
}
