/// Immutable bytes in memory this object allocated itself and frees in deinit, so their address is fixed for its
/// whole life: a writer may hand ranges of it to the kernel (`writev`) or to an HTTP server that sends them later,
/// as long as it holds the object until then.
// @unchecked Sendable: the memory is written once, in init, and only read afterwards.
public final class ArchiveBytes: @unchecked Sendable {
    private let storage: UnsafeMutableRawBufferPointer
    /// Size in bytes.
    public let count: Int

    /// A copy of `bytes`.
    public convenience init(_ bytes: [UInt8]) {
        self.init(count: bytes.count) { target in bytes.withUnsafeBytes { target.copyMemory(from: $0) } }
    }

    /// `count` bytes written by `fill`, the only time the memory is written.
    init(count: Int, fill: (UnsafeMutableRawBufferPointer) -> Void) {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 16)
        fill(UnsafeMutableRawBufferPointer(rebasing: storage[0..<count]))
        self.storage = storage
        self.count = count
    }

    deinit { storage.deallocate() }

    /// `range` of the bytes; valid while this object is alive (callers that keep it past a call hold the object).
    package func memory(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "range outside the bytes")
        return UnsafeRawBufferPointer(rebasing: storage[range])
    }
}

/// A range of an `ArchiveBytes`, which it keeps alive.
public struct ArchivePiece: Sendable {
    /// The memory the piece lies in.
    public let storage: ArchiveBytes
    /// Where in `storage`.
    public let range: Range<Int>

    /// Size in bytes.
    public var count: Int { range.count }

    /// The piece's bytes, for the duration of `body`.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(storage.memory(range))
    }
}

/// A finished zip as a sequence of byte ranges: template assets' records stay in the asset cache's buffer, shared
/// by every archive, and the archive's own records lie in one buffer of its own. It is written to a file with one
/// `writev`, or sent by an HTTP server straight from these buffers, with no assembling copy.
public struct ArchiveParts: Sendable {
    /// The zip's bytes, in order.
    public let pieces: [ArchivePiece]

    init(_ pieces: [ArchivePiece]) { self.pieces = pieces }

    /// An archive already in one buffer (copied once, into memory of its own).
    public init(_ bytes: [UInt8]) {
        let storage = ArchiveBytes(bytes)
        pieces = [ArchivePiece(storage: storage, range: 0..<storage.count)]
    }

    /// Total size in bytes.
    public var count: Int { pieces.reduce(0) { $0 + $1.count } }

    /// The same bytes in one buffer of their own (one copy; the parts themselves when they already are one piece).
    public func joined() -> ArchiveParts {
        guard pieces.count != 1 else { return self }
        let storage = ArchiveBytes(count: count) { target in
            var offset = 0
            for piece in pieces {
                piece.withUnsafeBytes { source in
                    UnsafeMutableRawBufferPointer(rebasing: target[offset..<(offset + source.count)])
                        .copyMemory(from: source)
                    offset += source.count
                }
            }
        }
        return ArchiveParts([ArchivePiece(storage: storage, range: 0..<storage.count)])
    }

    /// The zip as one contiguous array (a copy).
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        for piece in pieces { piece.withUnsafeBytes { out.append(contentsOf: $0) } }
        return out
    }

    /// The pieces' memory, in order; valid while these parts (which hold every buffer) are alive.
    package var regions: [UnsafeRawBufferPointer] { pieces.map { $0.storage.memory($0.range) } }
}
