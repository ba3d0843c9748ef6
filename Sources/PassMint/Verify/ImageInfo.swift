/// Facts read from image bytes without decoding them: enough to tell a real PNG from a renamed JPEG and to
/// check pixel sizes. Shared by verify, lint and preview.
public enum ImageInfo {
    /// The eight bytes every PNG file starts with.
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Width and height from a PNG's IHDR chunk, or nil when the bytes are not a PNG: the signature must be
    /// present and the first chunk must be a 13-byte IHDR with non-zero dimensions.
    /// - Parameter bytes: the whole file (only the first 24 bytes are read).
    public static func pngSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count >= 24, Array(bytes[0..<8]) == pngSignature else { return nil }
        guard bigEndian32(bytes, at: 8) == 13, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        let width = bigEndian32(bytes, at: 16)
        let height = bigEndian32(bytes, at: 20)
        guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else { return nil }
        return (Int(width), Int(height))
    }

    /// Width and height from a JPEG's start-of-frame segment, or nil when the bytes are not a JPEG or no frame
    /// header comes before the image data. Walks the marker segments only; nothing is decoded.
    public static func jpegSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }  // fill byte before a marker
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue }  // no length field
            if marker == 0xD9 || marker == 0xDA { return nil }  // end of image / scan data before any frame header
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2 else { return nil }
            // SOF0-SOF15 except DHT (C4), JPG (C8) and DAC (CC): precision, height, width.
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard length >= 7, offset + 9 <= bytes.count else { return nil }
                let height = Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6])
                let width = Int(bytes[offset + 7]) << 8 | Int(bytes[offset + 8])
                return width > 0 && height > 0 ? (width, height) : nil
            }
            offset += 2 + length
        }
        return nil
    }

    /// What the bytes look like when they are not a PNG ("JPEG", "GIF", "WebP", "HEIC", "empty"), for messages.
    public static func formatName(_ bytes: [UInt8]) -> String {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<(offset + prefix.count)]) == prefix
        }
        if bytes.isEmpty { return "empty" }
        if pngSize(bytes) != nil { return "PNG" }
        if starts(pngSignature) { return "a damaged PNG" }
        if starts([0xFF, 0xD8, 0xFF]) { return "JPEG" }
        if starts(Array("GIF8".utf8)) { return "GIF" }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return "WebP" }
        if starts(Array("ftyp".utf8), at: 4) { return "HEIC/MP4" }
        if starts([0x42, 0x4D]) { return "BMP" }
        if starts(Array("<svg".utf8)) || starts(Array("<?xml".utf8)) { return "SVG/XML" }
        return "not an image format PassMint recognises"
    }

    private static func bigEndian32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
