/// Why a per-record image (a member photo, per-record art) could not be used. Each message names the file and
/// says what to do; the batch report adds the record's line.
public enum PhotoError: Error, CustomStringConvertible, Equatable {
    /// No file at the path (after resolving it against its folder).
    case missing(file: String)
    /// The path leads outside the folder photos may come from (`..`, an absolute path, a symlink pointing out).
    case outsideFolder(file: String, folder: String)
    /// The path names a folder, a device or something else that is not a regular file.
    case notAFile(file: String)
    /// The file could not be read (permissions, I/O).
    case unreadable(file: String, reason: String)
    /// The file is larger than `PhotoLimits.maxFileBytes`.
    case fileTooLarge(file: String, bytes: Int, limit: Int)
    /// The bytes are not PNG or JPEG (whatever the extension says); `found` is what they look like.
    case notAnImage(file: String, found: String)
    /// The header declares more pixels than `PhotoLimits.maxPixels`.
    case tooManyPixels(file: String, width: Int, height: Int, limit: Int)
    /// The header declares far more pixels than a file of this size can hold honestly: a decompression bomb.
    case decompressionBomb(file: String, width: Int, height: Int, bytes: Int)
    /// libvips could not decode or scale the image (a damaged file); `message` is libvips' own text.
    case decodeFailed(file: String, message: String)
    /// The slot has no per-record size for this style (e.g. poster art sizes Apple has not confirmed).
    case slotUnavailable(slot: String, style: String)
    /// The style never shows this slot, so the image would be dead weight.
    case slotNotShown(slot: String, style: String, shownOn: [String])
    /// libvips could not start (the library is missing or broken).
    case libraryUnavailable(message: String)
    /// The program was built without an image scaler (PassMint's small library product), so no photo can be used.
    case scalerUnavailable(file: String)

    public var description: String {
        switch self {
        case .missing(let file):
            return
                "image \(file) does not exist; check the path (relative paths start at the CSV's or data file's folder, or at the image folder given)"
        case .outsideFolder(let file, let folder):
            return
                "image \(file) is outside \(folder); images must be inside that folder (no '..', no absolute paths or symlinks leading out)"
        case .notAFile(let file):
            return "image \(file) is not a regular file; give the path of a PNG or JPEG file"
        case .unreadable(let file, let reason):
            return "image \(file) cannot be read: \(reason); check its permissions"
        case .fileTooLarge(let file, let bytes, let limit):
            return "image \(file) is \(Self.megabytes(bytes)) MB, more than the \(Self.megabytes(limit)) MB limit; "
                + "export it smaller (Wallet shows at most a few hundred pixels)"
        case .notAnImage(let file, let found):
            return "image \(file) is not a PNG or JPEG (its bytes look like \(found)); convert it to PNG or JPEG"
        case .tooManyPixels(let file, let width, let height, let limit):
            return "image \(file) is \(width)×\(height) px (\(Self.megapixels(width * height)) megapixels), more than "
                + "the \(Self.megapixels(limit))-megapixel limit; scale it down first (refused before decoding)"
        case .decompressionBomb(let file, let width, let height, let bytes):
            return "image \(file) declares \(width)×\(height) px in only \(bytes) bytes: a decompression bomb; "
                + "refused before decoding — replace the file"
        case .decodeFailed(let file, let message):
            return "image \(file) cannot be decoded (\(message)); the file may be damaged — re-export it"
        case .slotUnavailable(let slot, let style):
            return "image slot \(slot) has no confirmed size for \(style) passes; use another slot"
        case .slotNotShown(let slot, let style, let shownOn):
            return "\(style) passes do not show a \(slot) image (only \(shownOn.joined(separator: ", ")) passes do); "
                + "use a slot the style shows"
        case .libraryUnavailable(let message):
            return "libvips could not start (\(message)); reinstall libvips (Debian package libvips42)"
        case .scalerUnavailable(let file):
            return "image \(file) cannot be scaled: this program was built without an image scaler; build it with "
                + "the PassPhotos library and give its PhotoScaler to the pass issuer"
        }
    }

    private static func megabytes(_ bytes: Int) -> String {
        let value = Double(bytes) / 1_048_576
        return value >= 10 ? String(Int(value.rounded())) : String((value * 10).rounded() / 10)
    }

    private static func megapixels(_ pixels: Int) -> String {
        let value = Double(pixels) / 1_000_000
        return value >= 10 ? String(Int(value.rounded())) : String((value * 10).rounded() / 10)
    }
}
