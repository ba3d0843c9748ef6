/// The problem codes PassModel reports. They are a public contract: add new ones, never rename.
public enum PassProblemCode {
    /// No style key, or more than one.
    public static let noStyle = "pass.no-style"
    /// A required key, or a field's key or value, is missing.
    public static let missingKey = "pass.missing-key"
    /// A value has the wrong type or a value Wallet does not accept.
    public static let invalidValue = "pass.invalid-value"
    /// Two fields share a key (unique across the whole pass; within each style dictionary beside posterGeneric).
    public static let duplicateFieldKey = "pass.duplicate-field-key"
    /// More fields in a group than Wallet displays (warning).
    public static let tooManyFields = "pass.too-many-fields"
    /// A key PassMint does not know (warning; the key is kept).
    public static let unknownKey = "pass.unknown-key"
    /// A poster event ticket lacks what the poster layout needs, so Wallet silently shows the classic layout.
    public static let posterFallback = "pass.poster-fallback"

    // iOS 27. Warnings unless the JSON cannot be what it must be: Wallet is not known to refuse any of these.

    /// `posterGeneric` without a legacy style dictionary: iOS 26 and earlier cannot add the pass (warning).
    public static let posterNoFallback = "pass.poster-no-fallback"
    /// `posterGeneric` beside a legacy style Apple does not name as its fallback (`boardingPass`) (warning).
    public static let posterFallbackStyle = "pass.poster-fallback-style"
    /// A field group the style does not show: secondary or auxiliary fields in `posterGeneric`, `footerFields`
    /// in a legacy style (warning; the pass installs, the fields are not drawn).
    public static let groupNotShown = "pass.group-not-shown"
    /// A key Apple's reference pages do not confirm (it comes from Apple's builder, a talk or a third-party
    /// library), or one whose effect on this style is unconfirmed (warning; the key is kept).
    public static let unconfirmedKey = "pass.unconfirmed-key"
    /// More than two `featuredActions` (warning; Apple documents at most two).
    public static let tooManyActions = "pass.too-many-actions"
    /// Two `featuredActions` with the same `identifier` (warning; Apple's builder and talk say unique).
    public static let duplicateActionIdentifier = "pass.duplicate-action-identifier"
    /// `featuredActions` on a layout reported not to show them (poster event ticket, semantic boarding pass)
    /// (warning; a third-party finding, not Apple's).
    public static let actionsNotShown = "pass.featured-actions-not-shown"
    /// A barcode message the symbology cannot encode (EAN-13 check digit, Code 39 or Codabar characters,
    /// I2of5 digit count) (warning; the rules come from the symbologies, not from Apple).
    public static let barcodeMessage = "pass.barcode-message"

    // Apple's own validator (apple/pass-builder, `PassValidator`). Warnings: where it refuses to sign, Wallet still
    // installs the pass and shows the classic layout, and each message says both.

    /// A poster event ticket without `nfc`: Apple's validator refuses to sign it (warning).
    public static let posterNFC = "pass.poster-nfc"
    /// A poster event ticket whose `nfc` has no `requiresAuthentication`: Apple's validator refuses to sign it
    /// (warning).
    public static let posterNFCAuthentication = "pass.poster-nfc-authentication"
    /// A semantic boarding pass without a tag Apple's validator requires (departure time zone, airport codes,
    /// flight, dates, passenger): Apple refuses to sign it, Wallet shows the classic boarding pass (warning).
    public static let semanticBoardingFallback = "pass.semantic-boarding-fallback"
    /// A semantic tag Apple's validator recommends for the layout the pass asks for: `eventStartDate`, `artistIDs`,
    /// `seats`, the destination time zone, city names (warning).
    public static let semanticsRecommended = "pass.semantics-recommended"
    /// A field with both `currencyCode` and `numberStyle`, which Apple's validator says cannot be set together
    /// (warning).
    public static let numberFormatConflict = "pass.number-format-conflict"
    /// A poster event ticket with neither `artwork.png` nor `background.png`: Apple's validator refuses to sign it
    /// (warning).
    public static let missingPosterArt = "image.missing-poster-art"
    /// An image without the @2x or @3x version Apple asks for: the icon on every pass (Apple's validator
    /// recommends both), artwork and primaryLogo on poster generic (warning).
    public static let missingImageScale = "image.missing-scale"
}
