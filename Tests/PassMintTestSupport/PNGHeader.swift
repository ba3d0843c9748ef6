/// The eight bytes every PNG starts with.
public let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

/// A PNG header (signature + IHDR, then IEND) declaring `width`×`height`: enough for the size checks of verify
/// and lint, which read dimensions and never decode pixels.
public func pngHeader(_ width: Int, _ height: Int) -> [UInt8] {
    func be32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
    return pngSignature + be32(13) + Array("IHDR".utf8) + be32(width) + be32(height)
        + [8, 6, 0, 0, 0] + [0, 0, 0, 0] + be32(0) + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
}
