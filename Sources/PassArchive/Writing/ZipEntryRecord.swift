internal import CZlib

/// One archive entry written as zip records by PassMint itself, for the few small per-pass files (pass.json,
/// manifest.json, signature, per-record pass.strings) of an archive whose template assets come from an
/// `AssetCache`. The headers carry the same fields libzip writes for its entries (made by 6.3 on Unix, DOS time
/// 2001-01-01 00:00, mode 0666, no extra fields, no data descriptor), so the archive is uniform.
///
/// Why not libzip for these: a libzip deflate stream sets up about 400 KB of zlib state per entry (level 9,
/// largest window and hash) and clears it, which for a 2 KB pass.json costs more than compressing it. Here the
/// window and hash are sized to the entry; the output is ordinary raw deflate that any unzip reads.
enum ZipEntryRecord {
    /// zlib's fastest level: these files are a few KB (pass.json deflates to ~40% at level 1, ~37% at 9), and
    /// for inputs this small zlib's fixed per-stream work dominates at higher levels.
    static let level: Int32 = 1
    /// DOS date of 2001-01-01 (see `ArchiveClock`), time 00:00:00.
    static let dosDate: UInt16 = (21 << 9) | (1 << 5) | 1
    static let dosTime: UInt16 = 0

    /// A buffer holding the entry's local record followed by its central-directory header (local-header
    /// offset 0, set by `ZipRecords.assembleParts`), and where each lies.
    static func make(_ entry: ArchiveEntry) throws(ArchiveError) -> (zip: [UInt8], record: ZipRecord) {
        let bytes = entry.bytes
        let name = Array(entry.name.utf8)
        var flags: UInt16 = name.allSatisfy { $0 < 0x80 } ? 0 : 0x0800  // bit 11: the name is UTF-8
        var method: UInt16 = 0
        var data = bytes
        if Compression.forEntry(entry.name) == .deflate {
            guard let deflated = deflateRaw(bytes) else {
                throw .writeFailed(
                    entry: entry.name,
                    reason: "zlib could not compress \(bytes.count) bytes (out of memory?); free memory or lower --jobs and retry")
            }
            method = 8
            data = deflated
            flags |= 0x0004  // bits 1-2 = 10: deflated with the "fast" option
        }
        let crc = bytes.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
        let needed: UInt16 = method == 8 ? 20 : 10

        var out: [UInt8] = []
        out.reserveCapacity(30 + 46 + 2 * name.count + data.count)
        put32(&out, 0x0403_4B50)
        for v in [needed, flags, method, dosTime, dosDate] { put16(&out, v) }
        put32(&out, crc)
        put32(&out, UInt32(data.count))
        put32(&out, UInt32(bytes.count))
        put16(&out, UInt16(name.count))
        put16(&out, 0)
        out += name
        out += data
        let localEnd = out.count
        put32(&out, 0x0201_4B50)
        for v in [0x033F, needed, flags, method, dosTime, dosDate] as [UInt16] { put16(&out, v) }
        put32(&out, crc)
        put32(&out, UInt32(data.count))
        put32(&out, UInt32(bytes.count))
        for v in [UInt16(name.count), 0, 0, 0, 0] as [UInt16] { put16(&out, v) }
        put32(&out, 0o100666 << 16)
        put32(&out, 0)
        out += name
        return (out, ZipRecord(name: entry.name, local: 0..<localEnd, central: localEnd..<out.count))
    }

    /// Raw deflate (no zlib header), window and hash sized to the input; nil if zlib fails.
    static func deflateRaw(_ input: [UInt8]) -> [UInt8]? {
        let windowBits = Int32(max(9, min(15, Int.bitWidth - max(1, input.count).leadingZeroBitCount)))
        guard let stream = DeflateStream(level: level, windowBits: windowBits, memLevel: max(1, min(8, windowBits - 7)))
        else { return nil }
        return stream.finish(input)
    }

    private static func put16(_ out: inout [UInt8], _ v: UInt16) {
        out.append(UInt8(truncatingIfNeeded: v))
        out.append(UInt8(truncatingIfNeeded: v >> 8))
    }
    private static func put32(_ out: inout [UInt8], _ v: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: v >> UInt32(shift))) }
    }
}

/// Owner of one zlib deflate stream (ended and freed in deinit). Heap-allocated because zlib keeps a pointer
/// back to the `z_stream` and refuses one that moved.
private final class DeflateStream {
    private let stream: UnsafeMutablePointer<z_stream>

    init?(level: Int32, windowBits: Int32, memLevel: Int32) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard pm_deflate_init_raw(stream, level, windowBits, memLevel) == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            return nil
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Compresses all of `input` in one call.
    func finish(_ input: [UInt8]) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, uLong(input.count))))
        let status = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.pointee.avail_in = uInt(source.count)
                stream.pointee.next_out = target.baseAddress
                stream.pointee.avail_out = uInt(target.count)
                return deflate(stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeLast(output.count - Int(stream.pointee.total_out))
        return output
    }
}
