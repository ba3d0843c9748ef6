import PassMint
import PassModel

/// The stable codes of `passmint lint --json` rows. Add codes, never rename one.
public enum LintCode {
    /// foregroundColor on backgroundColor is below WCAG's 4.5:1.
    public static let contrastForeground: ProblemCode = "contrast.foreground"
    /// labelColor on backgroundColor is below 4.5:1.
    public static let contrastLabel: ProblemCode = "contrast.label"
    /// Text over the strip image (or poster artwork) is below 4.5:1 against the image's average colour there.
    public static let contrastImage: ProblemCode = "contrast.image"
    /// A primary value too long to read at a glance (Wallet shrinks or cuts it).
    public static let primaryTooLong: ProblemCode = "field.primary-too-long"
    /// More fields in a group than the style shows; the rest are silently dropped on the phone.
    public static let fieldOverflow: ProblemCode = "field.overflow"
    /// A field that changes has no changeMessage, so an update raises no notification.
    public static let changeMessageMissing: ProblemCode = "field.change-message-missing"
    /// A changeMessage without `%@`: the notification cannot say the new value.
    public static let changeMessageNoValue: ProblemCode = "field.change-message-no-value"
    /// An event ticket or boarding pass with no relevantDates, locations or beacons.
    public static let relevanceMissing: ProblemCode = "relevance.missing"
    /// A poster event ticket or poster generic pass misses what its poster layout needs (or what Apple's validator
    /// asks of a poster event ticket: NFC, poster art, recommended tags).
    public static let posterIncomplete: ProblemCode = "poster.incomplete"
    /// A semantic boarding pass misses a tag Apple's validator requires or recommends.
    public static let boardingIncomplete: ProblemCode = "boarding.incomplete"
    /// A field has both currencyCode and numberStyle, which Apple's validator says cannot be set together.
    public static let numberFormatConflict: ProblemCode = "field.number-format-conflict"
    /// An image has no @2x or @3x variant (the validator's code).
    public static let imageMissingScale = PassProblemCode.missingImageScale
    /// An image is not the size its slot expects (verify's code).
    public static let imageWrongSize = VerifyCode.imageWrongSize
    /// Placeholder text (lorem ipsum, TODO, {{…}}) left in a value.
    public static let placeholderText: ProblemCode = "text.placeholder"
    /// A back field tells the holder to open the app, but the pass has no appLaunchURL.
    public static let appLinkMissing: ProblemCode = "back.app-link-missing"
    /// The barcode's message is not readable anywhere on the pass (no field, no altText).
    public static let barcodeNotReadable: ProblemCode = "barcode.not-readable"
    /// A text the preview cuts with "…" (logo text, label or value too wide for its place).
    public static let textTruncated: ProblemCode = "text.truncated"
    /// An `xx.lproj/pass.strings` without keys another localization has, or without some field labels while it
    /// translates others.
    public static let localizationMissingKeys: ProblemCode = "localization.missing-keys"
}
