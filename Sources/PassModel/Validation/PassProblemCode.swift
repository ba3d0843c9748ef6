/// The problem codes PassModel reports. They are a public contract: add new ones, never rename.
public enum PassProblemCode {
    /// No style key, or more than one.
    public static let noStyle: ProblemCode = "pass.no-style"
    /// A required key, or a field's key or value, is missing.
    public static let missingKey: ProblemCode = "pass.missing-key"
    /// A value has the wrong type or a value Wallet does not accept.
    public static let invalidValue: ProblemCode = "pass.invalid-value"
    /// Two fields share a key (unique across the whole pass; within each style dictionary beside posterGeneric).
    public static let duplicateFieldKey: ProblemCode = "pass.duplicate-field-key"
    /// More fields in a group than Wallet displays (warning).
    public static let tooManyFields: ProblemCode = "pass.too-many-fields"
    /// A key PassMint does not know (warning; the key is kept).
    public static let unknownKey: ProblemCode = "pass.unknown-key"
    /// A poster event ticket lacks what the poster layout needs, so Wallet silently shows the classic layout.
    public static let posterFallback: ProblemCode = "pass.poster-fallback"

    // iOS 27. Warnings unless the JSON cannot be what it must be: Wallet is not known to refuse any of these.

    /// `posterGeneric` without a legacy style dictionary: iOS 26 and earlier cannot add the pass (warning).
    public static let posterNoFallback: ProblemCode = "pass.poster-no-fallback"
    /// `posterGeneric` beside a legacy style Apple does not name as its fallback (`boardingPass`) (warning).
    public static let posterFallbackStyle: ProblemCode = "pass.poster-fallback-style"
    /// A field group the style does not show: secondary or auxiliary fields in `posterGeneric`, `footerFields`
    /// in a legacy style (warning; the pass installs, the fields are not drawn).
    public static let groupNotShown: ProblemCode = "pass.group-not-shown"
    /// A key Apple's reference pages do not confirm (it comes from Apple's builder, a talk or a third-party
    /// library), or one whose effect on this style is unconfirmed (warning; the key is kept).
    public static let unconfirmedKey: ProblemCode = "pass.unconfirmed-key"
    /// More than two `featuredActions` (warning; Apple documents at most two).
    public static let tooManyActions: ProblemCode = "pass.too-many-actions"
    /// Two `featuredActions` with the same `identifier` (warning; Apple's builder and talk say unique).
    public static let duplicateActionIdentifier: ProblemCode = "pass.duplicate-action-identifier"
    /// `featuredActions` on a layout reported not to show them (poster event ticket, semantic boarding pass)
    /// (warning; a third-party finding, not Apple's).
    public static let actionsNotShown: ProblemCode = "pass.featured-actions-not-shown"
    /// A barcode message the symbology cannot encode (EAN-13 check digit, Code 39 or Codabar characters,
    /// I2of5 digit count) (warning; the rules come from the symbologies, not from Apple).
    public static let barcodeMessage: ProblemCode = "pass.barcode-message"

    // Apple's own validator (apple/pass-builder, `PassValidator`). Warnings: where it refuses to sign, Wallet still
    // installs the pass and shows the classic layout, and each message says both.

    /// A poster event ticket without `nfc`: Apple's validator refuses to sign it (warning).
    public static let posterNFC: ProblemCode = "pass.poster-nfc"
    /// A poster event ticket whose `nfc` has no `requiresAuthentication`: Apple's validator refuses to sign it
    /// (warning).
    public static let posterNFCAuthentication: ProblemCode = "pass.poster-nfc-authentication"
    /// A semantic boarding pass without a tag Apple's validator requires (departure time zone, airport codes,
    /// flight, dates, passenger): Apple refuses to sign it, Wallet shows the classic boarding pass (warning).
    public static let semanticBoardingFallback: ProblemCode = "pass.semantic-boarding-fallback"
    /// A semantic tag Apple's validator recommends for the layout the pass asks for: `eventStartDate`, `artistIDs`,
    /// `seats`, the destination time zone, city names (warning).
    public static let semanticsRecommended: ProblemCode = "pass.semantics-recommended"
    /// A field with both `currencyCode` and `numberStyle`, which Apple's validator says cannot be set together
    /// (warning).
    public static let numberFormatConflict: ProblemCode = "pass.number-format-conflict"
    /// A poster event ticket with neither `artwork.png` nor `background.png`: Apple's validator refuses to sign it
    /// (warning).
    public static let missingPosterArt: ProblemCode = "image.missing-poster-art"
    /// An image without the @2x or @3x version Apple asks for: the icon on every pass (Apple's validator
    /// recommends both), artwork and primaryLogo on poster generic (warning).
    public static let missingImageScale: ProblemCode = "image.missing-scale"
    /// No icon at all: Wallet refuses the pass (Apple's validator rule; `verify` reports it as an error).
    public static let missingIcon: ProblemCode = "image.missing-icon"
}
