import PassModel
import PassTemplates

/// A pass's images by slot (`logo`, `strip`, …): the sharpest variant of each top-level image, with the URL it is
/// served at and whether it is the template's or a tier's (the class's: there is a class per tier) or the
/// record's own (the object's).
struct PassImageSet: Sendable {
    struct Image: Sendable {
        /// The file in the pass, e.g. `logo@3x.png`.
        let path: String
        /// Where Google fetches it; nil without a base URL.
        let url: String?
        /// The template's bytes or a tier's: the same for every pass of a class (not a member's photo).
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

    init(files: [PassFile], url: (PassFile) -> String?, hasBase: Bool) {
        // The sharpest file of each slot: one look-up per file, then one image per slot.
        var best: [String: (rank: Int, file: PassFile)] = [:]
        for file in files {
            guard let (slot, rank) = Self.fileNames[file.path] else { continue }
            if let known = best[slot], known.rank <= rank { continue }
            best[slot] = (rank, file)
        }
        var found: [String: Image] = [:]
        for (slot, entry) in best {
            let file = entry.file
            let size = Self.pngSize(file.bytes)
            found[slot] = Image(
                path: file.path, url: url(file), isTemplates: !file.isPerRecord, width: size?.0, height: size?.1)
        }
        bySlot = found
        self.hasBase = hasBase
    }

    /// `logo@3x.png` → (`logo`, 0), …: each slot's file names, sharpest first (PNG before JPEG).
    private static let fileNames: [String: (slot: String, rank: Int)] = {
        var out: [String: (String, Int)] = [:]
        for slot in slots {
            for (rank, suffix) in ["@3x.png", "@2x.png", ".png", "@3x.jpg", "@2x.jpg", ".jpg"].enumerated() {
                out[slot + suffix] = (slot, rank)
            }
        }
        return out
    }()

    /// Width and height from a PNG's IHDR.
    static func pngSize(_ bytes: [UInt8]) -> (Int, Int)? {
        guard bytes.count >= 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
        func be(_ i: Int) -> Int { bytes[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be(16), be(20))
    }
}
