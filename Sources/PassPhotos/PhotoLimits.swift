import PassMint
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

    /// Refuses a header whose dimensions exceed the limits.
    func check(width: Int, height: Int, fileBytes: Int, file: String) throws(PhotoError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard overflow || pixels > maxPixels else { return }
        if overflow || pixels / max(fileBytes, 1) >= bombPixelsPerByte {
            throw .decompressionBomb(file: file, width: width, height: height, bytes: fileBytes)
        }
        throw .tooManyPixels(file: file, width: width, height: height, limit: maxPixels)
    }
}
