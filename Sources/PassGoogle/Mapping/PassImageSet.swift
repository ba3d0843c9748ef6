import PassModel
import PassTemplates

/// A pass's images by slot (`logo`, `strip`, …): the sharpest variant of each top-level image, with the URL it is
/// served at and whether it is the template's own (the class's) or the record's or a tier's (the object's).
struct PassImageSet: Sendable {
    struct Image: Sendable {
        /// The file in the pass, e.g. `logo@3x.png`.
        let path: String
        /// Where Google fetches it; nil without a base URL.
        let url: String?
        /// The template's own bytes: the same for every pass.
        let isTemplates: Bool
        let width: Int?
        let height: Int?

        /// Google's Image: `{"sourceUri": {"uri": …}}`.
        var json: JSONValue? { url.map { ["sourceUri": ["uri": .string($0)]] } }
    }

    let bySlot: [String: Image]
    let hasBase: Bool

    /// Every slot Apple defines, the ones Google has a place for first.
    static let slots = [
        "logo", "strip", "artwork", "thumbnail", "icon", "background", "footer", "primaryLogo", "personalizationLogo",
    ]

    subscript(slot: String) -> Image? { bySlot[slot] }

    init(files: [PassFile], templateFiles: [String: [UInt8]], url: (PassFile) -> String?, hasBase: Bool) {
        var found: [String: Image] = [:]
        let byPath = Dictionary(files.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        for slot in Self.slots {
            for suffix in ["@3x.png", "@2x.png", ".png", "@3x.jpg", "@2x.jpg", ".jpg"] {
                guard let file = byPath[slot + suffix] else { continue }
                let size = Self.pngSize(file.bytes)
                found[slot] = Image(
                    path: file.path, url: url(file), isTemplates: templateFiles[file.path] == file.bytes,
                    width: size?.0, height: size?.1)
                break
            }
        }
        bySlot = found
        self.hasBase = hasBase
    }

    /// Width and height from a PNG's IHDR.
    static func pngSize(_ bytes: [UInt8]) -> (Int, Int)? {
        guard bytes.count >= 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
        func be(_ i: Int) -> Int { bytes[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be(16), be(20))
    }
}
