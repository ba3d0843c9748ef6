/// What an image file's header declares, read without decoding a pixel.
package struct ImageHeader: Sendable, Equatable {
    /// The encodings PassMint reads.
    package enum Format: Sendable, Equatable { case png, jpeg }

    package let format: Format
    package let width: Int
    package let height: Int

    /// The header of a PNG or JPEG, nil for anything else.
    package init?(_ bytes: [UInt8]) {
        if let size = ImageInfo.pngSize(bytes) {
            (format, width, height) = (.png, size.width, size.height)
        } else if let size = ImageInfo.jpegSize(bytes) {
            (format, width, height) = (.jpeg, size.width, size.height)
        } else {
            return nil
        }
    }
}
