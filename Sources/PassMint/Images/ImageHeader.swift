/// What an image file's header declares, read without decoding a pixel.
struct ImageHeader: Sendable, Equatable {
    /// The encodings PassMint reads.
    enum Format: Sendable, Equatable { case png, jpeg }

    let format: Format
    let width: Int
    let height: Int

    /// The header of a PNG or JPEG, nil for anything else.
    init?(_ bytes: [UInt8]) {
        if let size = ImageInfo.pngSize(bytes) {
            (format, width, height) = (.png, size.width, size.height)
        } else if let size = ImageInfo.jpegSize(bytes) {
            (format, width, height) = (.jpeg, size.width, size.height)
        } else {
            return nil
        }
    }
}
