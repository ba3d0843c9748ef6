import Foundation

/// The images of a pass as `data:` URLs for one self-contained HTML file: for each slot, the largest scale
/// present (`@3x`, then `@2x`, then `@1x`) for a crisp 3x screenshot, or the smallest for gallery thumbnails.
/// Top-level images win over localized ones, as on the phone.
public struct PassImages: Sendable {
    let files: [String: [UInt8]]
    let folder: String?
    let preferSmall: Bool

    /// The images in `files`, localized ones taken from `folder` (an `xx.lproj`) when there is no top-level one.
    public init(files: [String: [UInt8]], localizedFolder folder: String?, preferSmall: Bool = false) {
        self.files = files
        self.folder = folder
        self.preferSmall = preferSmall
    }

    /// The file bytes for slot `base` (`strip`, `logo`, …), nil when the pass has no such image.
    public func bytes(_ base: String) -> [UInt8]? {
        let scales = preferSmall ? ["", "@2x", "@3x"] : ["@3x", "@2x", ""]
        for prefix in [""] + (folder.map { [$0 + "/"] } ?? []) {
            for scale in scales {
                if let b = files["\(prefix)\(base)\(scale).png"] { return b }
            }
        }
        return nil
    }

    /// True when the pass has an image for `base`.
    public func has(_ base: String) -> Bool { bytes(base) != nil }

    /// A `data:image/png;base64,…` URL for slot `base`.
    public func dataURL(_ base: String) -> String? {
        bytes(base).map { "data:image/png;base64," + Data($0).base64EncodedString() }
    }

    /// The average colour of the image's rows `top..<bottom` (fractions), for automatic colours and contrast.
    public func averageColor(_ base: String, top: Double = 0, bottom: Double = 1) -> RGB? {
        bytes(base).flatMap(PNGPixels.init)?.averageColor(top: top, bottom: bottom)
    }
}
