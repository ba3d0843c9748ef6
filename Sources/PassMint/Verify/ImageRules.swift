/// Wallet's image slots (wallet-spec §3): sizes in points, and which styles show each image.
struct ImageRule {
    enum Size {
        /// The image should be exactly this size (in points).
        case exact([(width: Int, height: Int)])
        /// The image should fit inside this size (in points).
        case maximum(width: Int, height: Int)
        /// Up to this size, aspect ratio between 2:3 and 3:2 (thumbnail).
        case thumbnail(side: Int)
    }

    var size: Size
    /// Styles that show the image; nil for every style.
    var styles: Set<String>?

    /// The rule for an image base name in a given style, nil for names Wallet has no fixed slot for.
    static func rule(for base: String, style: String?, isPoster: Bool) -> ImageRule? {
        switch base {
        case "icon": return ImageRule(size: .exact([(29, 29)]), styles: nil)
        case "logo": return ImageRule(size: .maximum(width: 160, height: 50), styles: nil)
        case "strip":
            let sizes: [(Int, Int)]
            switch style {
            case "eventTicket": sizes = [(375, 98)]
            case "coupon": sizes = [(375, 144)]
            case "storeCard": sizes = [(375, 123), (375, 144)]  // 144 for gift cards
            default: sizes = [(375, 123)]
            }
            return ImageRule(size: .exact(sizes), styles: ["coupon", "storeCard", "eventTicket"])
        case "thumbnail": return ImageRule(size: .thumbnail(side: 90), styles: ["eventTicket", "generic"])
        case "background":
            if isPoster { return nil }  // poster art sizes are not confirmed by Apple
            return ImageRule(size: .exact([(180, 220)]), styles: ["eventTicket"])
        case "footer": return ImageRule(size: .maximum(width: 286, height: 15), styles: ["boardingPass"])
        case "personalizationLogo": return ImageRule(size: .maximum(width: 150, height: 40), styles: nil)
        default: return nil
        }
    }

    /// A description of what is wrong with `width`×`height` pixels at `scale`, or nil when it fits.
    func sizeProblem(width: Int, height: Int, scale: Int) -> String? {
        switch size {
        case .exact(let sizes):
            if sizes.contains(where: { $0.width * scale == width && $0.height * scale == height }) { return nil }
            let wanted = sizes.map { "\($0.width * scale)×\($0.height * scale)" }.joined(separator: " or ")
            return "is \(width)×\(height) px; at @\(scale)x Wallet expects \(wanted) px (it scales and crops to fill)"
        case .maximum(let maxWidth, let maxHeight):
            if width <= maxWidth * scale && height <= maxHeight * scale { return nil }
            return "is \(width)×\(height) px; at @\(scale)x it should fit in \(maxWidth * scale)×\(maxHeight * scale) px"
        case .thumbnail(let side):
            let ratio = Double(width) / Double(height)
            if width <= side * scale, height <= side * scale, ratio >= 2.0 / 3.0, ratio <= 1.5 { return nil }
            return "is \(width)×\(height) px; at @\(scale)x a thumbnail fits in \(side * scale)×\(side * scale) px "
                + "with an aspect ratio between 2:3 and 3:2 (otherwise it is cropped)"
        }
    }
}
