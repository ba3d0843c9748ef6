extension PassValidator {
    /// Every rule of `validate(_:)`, plus the rules about the files beside pass.json that Apple's validator has:
    /// the icon's @2x and @3x versions, and the art of a poster event ticket.
    /// - Parameter fileNames: the pass's or template's entries, e.g. `icon@2x.png`, `de.lproj/logo.png`.
    public static func validate(_ json: JSONValue, fileNames: [String]) -> [Problem] {
        validate(json) + fileProblems(json, fileNames: fileNames)
    }

    /// The file rules alone (`validate(_:fileNames:)` without the pass.json rules).
    public static func fileProblems(_ json: JSONValue, fileNames: [String]) -> [Problem] {
        var c = Checker()
        guard case .object(let root) = json else { return [] }
        let images = ImageFileNames(fileNames)
        c.checkIconScales(images)
        c.checkPosterArt(root, images)
        return c.problems
    }
}

/// The PNG names of a pass by base name and scale: "icon@2x.png" → ("icon", 2). Top-level files only, except
/// where a rule accepts a localized copy.
struct ImageFileNames {
    /// base name → scales present at the top level.
    var topLevel: [String: Set<Int>] = [:]
    /// base names present in any `.lproj` folder.
    var localized: Set<String> = []

    init(_ names: [String]) {
        for name in names where name.hasSuffix(".png") {
            let parts = name.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { continue }
            var stem = String(parts[parts.count - 1].dropLast(4))
            var scale = 1
            for s in [2, 3] where stem.hasSuffix("@\(s)x") {
                scale = s
                stem = String(stem.dropLast(3))
            }
            if parts.count == 1 {
                topLevel[stem, default: []].insert(scale)
            } else if parts[0].hasSuffix(".lproj") {
                localized.insert(stem)
            }
        }
    }

    /// True when `base` exists at any scale, at the top level or localized.
    func has(_ base: String) -> Bool { topLevel[base] != nil || localized.contains(base) }
}

extension Checker {
    /// Apple's validator recommends icon@2x and icon@3x (a warning each); a pass without any icon is
    /// `image.missing-icon`, which `verify` reports.
    mutating func checkIconScales(_ images: ImageFileNames) {
        guard let scales = images.topLevel["icon"] else { return }
        for scale in [2, 3] where !scales.contains(scale) {
            let side = 29 * scale
            warning(
                PassProblemCode.missingImageScale, "icon@\(scale)x.png",
                "the pass has no icon@\(scale)x.png; Apple's validator recommends it (a warning there too) and "
                    + "\(scale)x screens otherwise enlarge a smaller icon, which looks blurry — add icon@\(scale)x.png "
                    + "\(side)×\(side) px")
        }
    }

    /// A poster event ticket needs poster art: Apple's validator refuses to sign one with neither artwork nor
    /// background image.
    mutating func checkPosterArt(_ root: [String: JSONValue], _ images: ImageFileNames) {
        let schemes = root["preferredStyleSchemes"]?.arrayValue ?? []
        guard root["eventTicket"] != nil, schemes.contains(.string(StyleScheme.posterEventTicket.rawValue)),
            !images.has("artwork"), !images.has("background")
        else { return }
        warning(
            PassProblemCode.missingPosterArt, "artwork.png",
            "a poster event ticket needs its poster art, artwork.png or background.png: \(Self.appleRefuses); "
                + "Wallet still installs the pass (Apple does not say what the poster shows without art) — add "
                + "artwork.png with its @2x and @3x versions, or remove posterEventTicket from preferredStyleSchemes")
    }
}
