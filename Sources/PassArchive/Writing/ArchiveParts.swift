/// A finished zip as a sequence of byte ranges (template assets' records stay in the asset cache's buffer,
/// shared by every archive), so it can be written to a file with one `writev` and no assembling copy.
public struct ArchiveParts: Sendable {
    /// The zip's bytes, in order.
    public let pieces: [ArraySlice<UInt8>]

    init(_ pieces: [ArraySlice<UInt8>]) { self.pieces = pieces }

    /// An archive already in one buffer.
    public init(_ bytes: [UInt8]) { pieces = [bytes[...]] }

    /// Total size in bytes.
    public var count: Int { pieces.reduce(0) { $0 + $1.count } }

    /// The zip as one contiguous array (a copy).
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        for piece in pieces { out.append(contentsOf: piece) }
        return out
    }
}
