/// What a per-record image may be, checked from the file's size and header before any pixel is decoded.
public struct PhotoLimits: Sendable, Equatable {
    /// Most pixels a header may declare (width × height). Default 40 megapixels: more than any phone camera's
    /// photo, far less than the gigapixel headers of decompression bombs.
    public var maxPixels: Int
    /// Largest file read. Default 50 MB: a 40-megapixel JPEG at high quality fits; the whole file is held in
    /// memory while it is scaled, so this also bounds each worker's input buffer.
    public var maxFileBytes: Int
    /// A header declaring more than `maxPixels` in fewer than one byte per this many pixels is reported as a
    /// decompression bomb rather than merely too large (real photos compress to about 1-4 bits per pixel).
    public var bombPixelsPerByte: Int

    public init(maxPixels: Int = 40_000_000, maxFileBytes: Int = 50 * 1_048_576, bombPixelsPerByte: Int = 1_000) {
        self.maxPixels = maxPixels
        self.maxFileBytes = maxFileBytes
        self.bombPixelsPerByte = bombPixelsPerByte
    }

    /// The defaults: 40 megapixels, 50 MB.
    public static let standard = PhotoLimits()

    /// The header of an image file, refused when the file is larger than `maxFileBytes`, is not a PNG or JPEG,
    /// or declares more pixels than the limits allow. The one check every image PassMint takes in is held to
    /// before anything decodes it: member photos, template images and the images of a pass being verified.
    /// - Parameter file: the name messages use.
    /// - Throws: `PhotoError.fileTooLarge`, `.notAnImage`, `.tooManyPixels` or `.decompressionBomb`.
    package func checkHeader(_ bytes: [UInt8], file: String) throws(PhotoError) -> ImageHeader {
        guard bytes.count <= maxFileBytes else {
            throw .fileTooLarge(file: file, bytes: bytes.count, limit: maxFileBytes)
        }
        guard let header = ImageHeader(bytes) else {
            let found = ImageInfo.formatName(bytes)
            throw .notAnImage(file: file, found: found == "JPEG" ? "a damaged JPEG (no frame header)" : found)
        }
        try check(width: header.width, height: header.height, fileBytes: bytes.count, file: file)
        return header
    }

    /// Refuses a header whose dimensions exceed the limits.
    package func check(width: Int, height: Int, fileBytes: Int, file: String) throws(PhotoError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard overflow || pixels > maxPixels else { return }
        if overflow || pixels / max(fileBytes, 1) >= bombPixelsPerByte {
            throw .decompressionBomb(file: file, width: width, height: height, bytes: fileBytes)
        }
        throw .tooManyPixels(file: file, width: width, height: height, limit: maxPixels)
    }
}
