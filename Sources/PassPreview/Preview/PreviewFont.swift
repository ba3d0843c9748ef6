/// A font the preview sets text in: DejaVu Sans (Book, Bold or ExtraLight) at a size, maybe upper-cased and
/// letter-spaced. The style sheet's font rules and the layout's measurements both read these values, so what the
/// browser draws and what `TextWidth` measures cannot drift apart.
public struct PreviewFont: Sendable, Hashable {
    /// The faces the preview uses; CSS weight 600 and 700 draw Bold, 300 draws ExtraLight.
    public enum Weight: Sendable, Hashable {
        case extraLight, book, bold

        /// The CSS `font-weight` that picks this face.
        var css: Int {
            switch self {
            case .extraLight: return 300
            case .book: return 400
            case .bold: return 600
            }
        }
    }

    /// CSS pixels.
    public var size: Double
    public var weight: Weight
    /// `text-transform: uppercase`.
    public var uppercase: Bool
    /// `letter-spacing` in em, added after every character.
    public var letterSpacing: Double

    public init(size: Double, weight: Weight = .book, uppercase: Bool = false, letterSpacing: Double = 0) {
        self.size = size
        self.weight = weight
        self.uppercase = uppercase
        self.letterSpacing = letterSpacing
    }

    /// The size as CSS writes it.
    var cssSize: String { size == size.rounded() ? "\(Int(size))px" : "\(size)px" }

    /// A field's label on the front: small, bold, upper-cased, spaced.
    static let label = PreviewFont(size: 10, weight: .bold, uppercase: true, letterSpacing: 0.04)
    /// A primary field's label.
    static let primaryLabel = PreviewFont(size: 12, weight: .bold, uppercase: true, letterSpacing: 0.04)
    /// A field's value in a row of up to three fields (four: `valueOfFour`, five: `valueOfFive`).
    static let value = PreviewFont(size: 16)
    static let valueOfFour = PreviewFont(size: 14)
    static let valueOfFive = PreviewFont(size: 12)
    /// A header field's value.
    static let headerValue = PreviewFont(size: 17)
    /// The logo text beside the logo.
    static let logoText = PreviewFont(size: 17, weight: .bold)
    /// The primary value of a store card or coupon (over the strip), and a boarding pass's airport codes.
    static let largePrimary = PreviewFont(size: 40, weight: .extraLight)
    /// The primary value of a generic pass or event ticket.
    static let primary = PreviewFont(size: 26)
    /// A poster's primary value other than its title.
    static let posterPrimary = PreviewFont(size: 20)

    /// The value font of a row of `count` fields (the row's text gets smaller as it fills).
    static func rowValue(count: Int) -> PreviewFont {
        count >= 5 ? valueOfFive : count == 4 ? valueOfFour : value
    }
}
