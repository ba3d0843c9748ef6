import PassModel

/// The colours a pass is drawn with: pass.json's `backgroundColor`, `foregroundColor` and `labelColor` where set
/// and readable; Wallet's defaults otherwise (white card, black text, a label the system derives from the text);
/// and on poster layouts with `useAutomaticColors` (or no colours at all) colours derived from the artwork, light
/// text on dark art and dark text on light art.
public struct PassColors: Sendable, Equatable {
    public var background: RGB
    public var foreground: RGB
    public var label: RGB
    /// The colours came from the artwork, not from pass.json.
    public var automatic: Bool

    /// How much a poster darkens the artwork behind its header and primary fields (towards black), unless
    /// `suppressHeaderDarkening` is set; the preview draws it and lint measures contrast on it.
    public static let headerDarkening = 0.35

    /// The colours of `pass` drawn in `style`, with `images` for the automatic colours of poster layouts.
    public init(_ pass: Pass, style: PreviewStyle, images: PassImages) {
        let art = style.isPoster ? (images.averageColor("artwork") ?? images.averageColor("background")) : nil
        let wantsAutomatic =
            pass.useAutomaticColors == true
            || (pass.foregroundColor == nil && pass.labelColor == nil && pass.backgroundColor == nil)
        if style.isPoster, let art, wantsAutomatic {
            background = RGB(pass.backgroundColor) ?? art
            let light = art.luminance < 0.4
            foreground = light ? .white : .black
            label = light ? RGB(235, 235, 240) : RGB(60, 60, 67)
            automatic = true
            return
        }
        background = RGB(pass.backgroundColor) ?? RGB(255, 255, 255)
        foreground = RGB(pass.foregroundColor) ?? (background.luminance < 0.4 ? .white : .black)
        label = RGB(pass.labelColor) ?? foreground.mixed(with: background, 0.35)
        automatic = false
    }
}
