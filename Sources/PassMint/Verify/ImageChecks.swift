import PassModel

/// Images: an icon exists, every .png is a real PNG within the limits of member photos, sizes fit their slot for
/// the style and scale, and no image sits in a slot the style never shows. On a poster generic pass an image counts as shown when
/// posterGeneric or its fallback shows it (older systems draw the fallback's strip or thumbnail).
enum ImageChecks {
    static func check(_ pass: PassFiles, facts: PassFacts, into findings: inout Findings) {
        let names = pass.contentNames
        let images = names.compactMap(ImageName.init)
        let unreadableImages = pass.unreadable.compactMap(ImageName.init)
        if !(images + unreadableImages).contains(where: { $0.base == "icon" }) {
            findings.error(
                VerifyCode.imageMissingIcon,
                "the pass has no icon.png; every pass needs one (29×29 pt: icon.png 29×29, icon@2x.png 58×58, "
                    + "icon@3x.png 87×87 px) — Wallet will not open it", path: "icon.png")
        }
        for name in names where isOtherImageFormat(name) {
            findings.warning(
                VerifyCode.imageNotPNG,
                "'\(name)' is not a .png file; Wallet only reads PNG images — convert it", path: name)
        }
        var reportedNotShown = Set<String>()
        for image in images {
            let path = image.folder.map { "\($0)/\(image.fileName)" } ?? image.fileName
            guard let bytes = pass[path] else { continue }
            guard let size = ImageInfo.pngSize(bytes) else {
                findings.error(
                    VerifyCode.imageNotPNG,
                    "'\(path)' is named .png but its content is \(ImageInfo.formatName(bytes)); Wallet refuses it — "
                        + "export a real PNG", path: path)
                continue
            }
            if let refusal = ImageLimitChecks.refusal(bytes, path: path) {
                findings.error(refusal.code, refusal.message, path: path)
                continue
            }
            guard let slot = ImageSlotChoice(image.base, facts: facts) else { continue }
            guard let rule = slot.shownRule else {
                if reportedNotShown.insert(image.base).inserted {
                    findings.warning(
                        VerifyCode.imageNotShown,
                        "\(image.base).png is not shown on \(slot.stylePhrase) (only on "
                            + slot.showingStyles.sorted().joined(separator: ", ")
                            + "); remove it to keep the pass small",
                        path: path)
                }
                continue
            }
            if let problem = rule.sizeProblem(width: size.width, height: size.height, scale: image.scale) {
                findings.warning(VerifyCode.imageWrongSize, "'\(path)' \(problem)", path: path)
            }
        }
        let showsEventTicket = facts.style == "eventTicket" || facts.fallbackStyle == "eventTicket"
        if showsEventTicket, images.contains(where: { $0.base == "strip" }) {
            for base in ["background", "thumbnail"] where images.contains(where: { $0.base == base }) {
                findings.warning(
                    VerifyCode.imageNotShown,
                    "\(base).png is not shown on an event ticket that has a strip image; remove one of them",
                    path: "\(base).png")
            }
        }
        if facts.style == PassStyle.posterGeneric.rawValue { PosterImageChecks.check(images, into: &findings) }
    }

    private static func isOtherImageFormat(_ name: String) -> Bool {
        let lower = name.lowercased()
        return [".jpg", ".jpeg", ".gif", ".webp", ".heic", ".bmp", ".svg"].contains { lower.hasSuffix($0) }
    }
}
