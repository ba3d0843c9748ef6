import PassTemplates
import PassModel

/// Turns a record's image file (a member photo) into its slot's PNGs at Apple's sizes: `slot.png`, `slot@2x.png`,
/// `slot@3x.png`. PassPhotos' `PhotoScaler` does it with libvips; this library links no imaging library, so an
/// issuer made without one uses `NoPhotoScaler`, which refuses every image with `PhotoError.scalerUnavailable`.
public protocol PhotoScaling: Sendable {
    /// The slot's three PNGs, made from the image at `path`.
    /// - Parameters:
    ///   - path: as the record gave it; relative paths start at `folder`.
    ///   - folder: the folder the image must be inside.
    ///   - style: the pass's style (`posterGeneric` when present, else its legacy style); sizes depend on it.
    ///   - isPoster: the pass asks for the poster event ticket layout.
    /// - Throws: `PhotoError` naming the file.
    func files(slot: String, path: String, folder: String, style: String?, isPoster: Bool) throws(PhotoError)
        -> [PassFile]

    /// Starts what the scaler needs before any worker thread runs (libvips changes the environment when it
    /// starts); a failure is reported by the first image instead.
    func prepare()
}

/// The scaler of an issuer made without an imaging library: every image the record names is refused.
public struct NoPhotoScaler: PhotoScaling {
    public init() {}

    public func files(slot: String, path: String, folder: String, style: String?, isPoster: Bool)
        throws(PhotoError) -> [PassFile]
    {
        throw .scalerUnavailable(file: path)
    }

    public func prepare() {}
}

/// The names of a slot's per-record image files, one per scale Wallet reads.
public enum PhotoFiles {
    /// The scale factors Wallet reads, each a file `slot.png`, `slot@2x.png`, `slot@3x.png`.
    public static let scales = [1, 2, 3]

    /// The file name of `slot` at `scale`.
    public static func fileName(slot: String, scale: Int) -> String {
        scale == 1 ? "\(slot).png" : "\(slot)@\(scale)x.png"
    }

    /// The slot a per-record file name belongs to (`thumbnail@2x.png` → `thumbnail`), nil for other names.
    public static func slot(ofFile name: String) -> String? {
        for slot in ImageSlot.names where scales.contains(where: { fileName(slot: slot, scale: $0) == name }) {
            return slot
        }
        return nil
    }
}
