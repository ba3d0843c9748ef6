import PassModel

/// A pass's images held to the limits of member photos (`PhotoLimits.checkHeader`, the same check `generate`
/// applies to template images): a phone decodes every image of a pass it shows, so a decompression bomb or a
/// gigapixel image is an error, with its own code.
enum ImageLimitChecks {
    /// The finding for `bytes` (the entry at `path`), nil when the image is within the limits.
    static func refusal(_ bytes: [UInt8], path: String, limits: PhotoLimits = .standard) -> (
        code: ProblemCode, message: String
    )? {
        do {
            _ = try limits.checkHeader(bytes, file: path)
            return nil
        } catch {
            switch error {
            case .decompressionBomb(_, let width, let height, let size):
                return (
                    VerifyCode.imageBomb,
                    "'\(path)' declares \(width)×\(height) px in only \(size) bytes: a decompression bomb that every "
                        + "phone showing the pass would have to expand; replace the image"
                )
            case .tooManyPixels(_, let width, let height, let limit):
                return (
                    VerifyCode.imageTooLarge,
                    "'\(path)' is \(width)×\(height) px, more than \(limit / 1_000_000) megapixels; Wallet shows at most "
                        + "a few hundred pixels — scale it down"
                )
            case .fileTooLarge(_, let size, let limit):
                return (
                    VerifyCode.imageTooLarge,
                    "'\(path)' is \(size) bytes, more than the \(limit)-byte limit; export it smaller"
                )
            default:
                return nil  // not an image by its content: the PNG check reports it
            }
        }
    }
}
