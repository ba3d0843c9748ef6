import PassModel

/// Images of a poster generic pass beyond size and slot (ios27.md): Apple asks for @2x and @3x of the artwork
/// and primary logo, and `background.png` is a name only the WWDC26 talk uses for the poster art.
enum PosterImageChecks {
    /// Slots Apple's poster generic article asks to supply at @2x and @3x.
    static let scaledSlots = ["artwork", "primaryLogo"]

    static func check(_ images: [ImageName], into findings: inout Findings) {
        if let background = images.first(where: { $0.base == "background" }) {
            // The talk says "background image" [T], the article names artwork.png [A]: say so, never guess.
            findings.warning(
                VerifyCode.imageUnconfirmedSlot,
                "background.png on a poster generic pass is unconfirmed: the WWDC26 talk speaks of a background "
                    + "image, but Apple's article names artwork.png (358×448 pt) for the poster art — supply "
                    + "artwork.png, and keep background.png only if the fallback style uses it",
                path: background.folder.map { "\($0)/\(background.fileName)" } ?? background.fileName)
        }
        let folders = Set(images.map { $0.folder ?? "" })
        for folder in folders.sorted() {
            for base in scaledSlots {
                let scales = Set(images.filter { ($0.folder ?? "") == folder && $0.base == base }.map(\.scale))
                guard !scales.isEmpty else { continue }
                let missing = [2, 3].filter { !scales.contains($0) }
                guard !missing.isEmpty else { continue }
                let prefix = folder.isEmpty ? "" : "\(folder)/"
                let names = missing.map { "\(prefix)\(base)@\($0)x.png" + pixels(base, scale: $0) }
                findings.warning(
                    VerifyCode.imageMissingScale,
                    "\(prefix)\(base).png has no " + missing.map { "@\($0)x" }.joined(separator: " or ")
                        + " version; Apple asks poster generic passes for both, and iPhones pick the one for "
                        + "their screen — add " + names.joined(separator: " and "),
                    path: "\(prefix)\(base).png")
            }
        }
    }

    /// The pixel size a slot wants at a scale, for the message: " (1074×1344 px)".
    private static func pixels(_ base: String, scale: Int) -> String {
        guard let rule = ImageSlot.rule(for: base, style: PassStyle.posterGeneric.rawValue, isPoster: false) else {
            return ""
        }
        switch rule.size {
        case .exact(let sizes): return " (\(sizes[0].width * scale)×\(sizes[0].height * scale) px)"
        case .heightWithWidthRange(let height, let minWidth, let maxWidth):
            return " (\(height * scale) px tall, \(minWidth * scale)-\(maxWidth * scale) px wide)"
        case .maximum(let width, let height): return " (at most \(width * scale)×\(height * scale) px)"
        case .thumbnail(let side): return " (at most \(side * scale)×\(side * scale) px)"
        }
    }
}
