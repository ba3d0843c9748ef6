/// The records of a zip that libzip wrote: where each entry's local record and central-directory header lie.
///
/// Used to splice entries between zips without touching their data: a local record (header, name and
/// compressed bytes, CRC included) is copied verbatim, and its central header is copied with only the
/// local-header offset changed.
struct ZipRecord: Sendable {
    let name: String
    /// Local file header through the end of the entry's data (and data descriptor, if any).
    let local: Range<Int>
    /// The central-directory header of the entry.
    let central: Range<Int>
}

enum ZipRecords {
    private static let localSignature: UInt32 = 0x0403_4B50
    private static let centralSignature: UInt32 = 0x0201_4B50
    private static let endSignature: UInt32 = 0x0605_4B50
    private static let descriptorSignature: UInt32 = 0x0807_4B50

    /// Parses the central directory of `zip`.
    /// - Throws: `ArchiveError.damaged` when a header is out of place (never for zips libzip just wrote).
    static func parse(_ zip: [UInt8], file: String) throws(ArchiveError) -> [ZipRecord] {
        func fail(_ reason: String) -> ArchiveError { .damaged(file: file, reason: reason) }
        guard zip.count >= 22 else { throw fail("too short for a zip") }
        var end = zip.count - 22
        while end >= 0, u32(zip, end) != endSignature { end -= 1 }
        guard end >= 0 else { throw fail("no end-of-central-directory record") }
        let count = Int(u16(zip, end + 10))
        var cursor = Int(u32(zip, end + 16))
        var records: [ZipRecord] = []
        records.reserveCapacity(count)
        for _ in 0..<count {
            guard cursor + 46 <= zip.count, u32(zip, cursor) == centralSignature else {
                throw fail("central directory header out of place")
            }
            let flags = u16(zip, cursor + 8)
            let compressedSize = Int(u32(zip, cursor + 20))
            let nameLength = Int(u16(zip, cursor + 28))
            let centralLength = 46 + nameLength + Int(u16(zip, cursor + 30)) + Int(u16(zip, cursor + 32))
            let localStart = Int(u32(zip, cursor + 42))
            guard cursor + centralLength <= zip.count, localStart + 30 <= zip.count,
                u32(zip, localStart) == localSignature
            else { throw fail("local header out of place") }
            let name = String(decoding: zip[(cursor + 46)..<(cursor + 46 + nameLength)], as: UTF8.self)
            var localEnd =
                localStart + 30 + Int(u16(zip, localStart + 26)) + Int(u16(zip, localStart + 28)) + compressedSize
            if flags & 0x0008 != 0 {
                localEnd += localEnd + 4 <= zip.count && u32(zip, localEnd) == descriptorSignature ? 16 : 12
            }
            guard localEnd <= zip.count else { throw fail("entry \(name) runs past the end") }
            records.append(
                ZipRecord(name: name, local: localStart..<localEnd, central: cursor..<(cursor + centralLength)))
            cursor += centralLength
        }
        return records
    }

    /// One entry of a zip being assembled: its local record (header, then data) in pieces, and its
    /// central-directory header (local-header offset 0, set by `assembleParts`).
    struct Entry {
        /// Bytes already in an `ArchiveBytes` (an asset cache's zip, a finished pass) are referenced where they
        /// are; the rest is copied into the new archive's own buffer.
        enum Part {
            case shared(ArchivePiece)
            case own(ArraySlice<UInt8>)
        }

        let name: String
        let local: [Part]
        let central: ArraySlice<UInt8>
    }

    /// A zip of `entries` in the given order. Shared parts are not copied: the result points into their
    /// buffers; the own parts and a new central directory are copied into one buffer of the archive's own.
    static func assembleParts(_ entries: [Entry]) -> ArchiveParts {
        enum Slot {
            case shared(ArchivePiece)
            case own(Range<Int>)
        }
        var own: [UInt8] = []
        own.reserveCapacity(
            entries.reduce(22) { total, entry in
                entry.local.reduce(total + entry.central.count) { sum, part in
                    if case .own(let bytes) = part { return sum + bytes.count }
                    return sum
                }
            })
        var slots: [Slot] = []
        var central: [UInt8] = []
        central.reserveCapacity(entries.reduce(22) { $0 + $1.central.count })
        // Appends own bytes, extending the previous slot when it is the own range just before them.
        func appendOwn(_ bytes: ArraySlice<UInt8>) {
            let start = own.count
            own.append(contentsOf: bytes)
            if case .own(let previous) = slots.last, previous.upperBound == start {
                slots[slots.count - 1] = .own(previous.lowerBound..<own.count)
            } else {
                slots.append(.own(start..<own.count))
            }
        }
        var offset = 0
        for entry in entries {
            let headerStart = central.count
            central.append(contentsOf: entry.central)
            put32(&central, headerStart + 42, UInt32(offset))
            for part in entry.local {
                switch part {
                case .shared(let piece):
                    // Records that lie one after the other in the same buffer (a run of template assets between
                    // two entries of the pass's own) go out as one piece: one region to write, one reference held.
                    if case .shared(let previous) = slots.last, previous.storage === piece.storage,
                        previous.range.upperBound == piece.range.lowerBound
                    {
                        slots[slots.count - 1] = .shared(
                            ArchivePiece(
                                storage: piece.storage, range: previous.range.lowerBound..<piece.range.upperBound))
                    } else {
                        slots.append(.shared(piece))
                    }
                    offset += piece.count
                case .own(let bytes):
                    appendOwn(bytes)
                    offset += bytes.count
                }
            }
        }
        let centralSize = central.count
        central += [0x50, 0x4B, 0x05, 0x06, 0, 0, 0, 0]
        append16(&central, UInt16(entries.count))
        append16(&central, UInt16(entries.count))
        append32(&central, UInt32(centralSize))
        append32(&central, UInt32(offset))
        append16(&central, 0)
        appendOwn(central[...])
        let storage = ArchiveBytes(own)
        return ArchiveParts(
            slots.map { slot in
                switch slot {
                case .shared(let piece): piece
                case .own(let range): ArchivePiece(storage: storage, range: range)
                }
            })
    }

    private static func u16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
    private static func u32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }
    private static func put32(_ b: inout [UInt8], _ i: Int, _ v: UInt32) {
        for k in 0..<4 { b[i + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(k))) }
    }
    /// Appends `v` little-endian, as every zip field is stored.
    static func append16(_ out: inout [UInt8], _ v: UInt16) {
        out.append(UInt8(truncatingIfNeeded: v))
        out.append(UInt8(truncatingIfNeeded: v >> 8))
    }

    /// Appends `v` little-endian, as every zip field is stored.
    static func append32(_ out: inout [UInt8], _ v: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: v >> UInt32(shift))) }
    }
}
