/// Wallet's image slots (wallet-spec §3, ios27.md): sizes in points, which styles show each image, and the size a
/// per-record image is scaled to. One table for verify, the member-photo scaler, lint and preview.
public struct ImageSlot: Sendable {
    public enum Size: Sendable {
        /// The image should be exactly one of these sizes (in points).
        case exact([PointSize])
        /// The image should fit inside this size (in points).
        case maximum(width: Int, height: Int)
        /// A fixed height and a width in a range (in points): `primaryLogo`, `secondaryLogo`.
        case heightWithWidthRange(height: Int, minWidth: Int, maxWidth: Int)
        /// Up to this size, aspect ratio between 2:3 and 3:2 (thumbnail).
        case thumbnail(side: Int)
    }

    /// A width and height in points.
    public struct PointSize: Sendable, Equatable {
        public var width: Int
        public var height: Int
        public init(_ width: Int, _ height: Int) {
            self.width = width
            self.height = height
        }
    }

    /// The base file name: `icon`, `strip`, `artwork`, …
    public var name: String
    public var size: Size
    /// Styles that show the image (by `PassStyle` raw value); nil for every style.
    public var styles: Set<String>?

    /// Every slot name PassMint knows, for messages and for `image.SLOT` record keys.
    public static let names: [String] = [
        "icon", "logo", "strip", "thumbnail", "background", "footer", "personalizationLogo", "artwork",
        "primaryLogo", "secondaryLogo",
    ]

    /// The rule for an image base name in a given style, nil for names Wallet has no fixed slot for (or whose
    /// size Apple has not confirmed for that layout).
    /// - Parameters:
    ///   - style: the style whose rules apply (`posterGeneric` when the pass has one), nil when unknown.
    ///   - isPoster: the pass asks for the iOS 18 poster event ticket layout.
    public static func rule(for base: String, style: String?, isPoster: Bool) -> ImageSlot? {
        func slot(_ size: Size, _ styles: Set<String>?) -> ImageSlot {
            ImageSlot(name: base, size: size, styles: styles)
        }
        switch base {
        case "icon": return slot(.exact([PointSize(29, 29)]), nil)
        case "logo": return slot(.maximum(width: 160, height: 50), nil)
        case "strip":
            let sizes: [PointSize]
            switch style {
            case "eventTicket": sizes = [PointSize(375, 98)]
            case "coupon": sizes = [PointSize(375, 144)]
            case "storeCard": sizes = [PointSize(375, 123), PointSize(375, 144)]  // 144 for gift cards
            default: sizes = [PointSize(375, 123)]
            }
            return slot(.exact(sizes), ["coupon", "storeCard", "eventTicket"])
        case "thumbnail": return slot(.thumbnail(side: 90), ["eventTicket", "generic"])
        case "background":
            if isPoster || style == "posterGeneric" { return nil }  // poster art sizes are not confirmed by Apple
            return slot(.exact([PointSize(180, 220)]), ["eventTicket"])
        case "footer": return slot(.maximum(width: 286, height: 15), ["boardingPass"])
        case "personalizationLogo": return slot(.maximum(width: 150, height: 40), nil)
        case "artwork":
            if isPoster { return nil }  // poster event ticket art sizes are not confirmed by Apple
            return slot(.exact([PointSize(358, 448)]), ["posterGeneric"])
        case "primaryLogo":
            return slot(.heightWithWidthRange(height: 30, minWidth: 30, maxWidth: 126), nil)
        case "secondaryLogo":
            return slot(.heightWithWidthRange(height: 12, minWidth: 12, maxWidth: 135), nil)
        default: return nil
        }
    }

    /// The size in points a per-record image for this slot is cover-cropped to: the exact size, the largest
    /// box that fits, or the widest allowed width at the fixed height.
    public var scaledSize: PointSize {
        switch size {
        case .exact(let sizes): return sizes[0]
        case .maximum(let width, let height): return PointSize(width, height)
        case .heightWithWidthRange(let height, _, let maxWidth): return PointSize(maxWidth, height)
        case .thumbnail(let side): return PointSize(side, side)
        }
    }

    /// A description of what is wrong with `width`×`height` pixels at `scale`, or nil when it fits.
    public func sizeProblem(width: Int, height: Int, scale: Int) -> String? {
        switch size {
        case .exact(let sizes):
            if sizes.contains(where: { $0.width * scale == width && $0.height * scale == height }) { return nil }
            let wanted = sizes.map { "\($0.width * scale)×\($0.height * scale)" }.joined(separator: " or ")
            return "is \(width)×\(height) px; at @\(scale)x Wallet expects \(wanted) px (it scales and crops to fill)"
        case .maximum(let maxWidth, let maxHeight):
            if width <= maxWidth * scale && height <= maxHeight * scale { return nil }
            return
                "is \(width)×\(height) px; at @\(scale)x it should fit in \(maxWidth * scale)×\(maxHeight * scale) px"
        case .heightWithWidthRange(let h, let minWidth, let maxWidth):
            if height == h * scale, width >= minWidth * scale, width <= maxWidth * scale { return nil }
            return "is \(width)×\(height) px; at @\(scale)x Wallet expects \(h * scale) px tall and "
                + "\(minWidth * scale)-\(maxWidth * scale) px wide"
        case .thumbnail(let side):
            let ratio = Double(width) / Double(height)
            if width <= side * scale, height <= side * scale, ratio >= 2.0 / 3.0, ratio <= 1.5 { return nil }
            return "is \(width)×\(height) px; at @\(scale)x a thumbnail fits in \(side * scale)×\(side * scale) px "
                + "with an aspect ratio between 2:3 and 3:2 (otherwise it is cropped)"
        }
    }
}
