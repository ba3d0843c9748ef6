import PassModel

/// The problem codes `passmint verify` reports. They are part of the public contract (DESIGN.md):
/// add new ones, never rename one.
public enum VerifyCode {
    // Archive
    public static let archiveUnreadable = "archive.unreadable"
    public static let archiveJunkFile = "archive.junk-file"
    public static let archiveNestedFolder = "archive.nested-folder"
    /// An entry name with `\`, a leading `/` or a `..` component.
    public static let archiveBadPath = "archive.bad-path"
    /// The same entry name twice in one zip.
    public static let archiveDuplicateEntry = "archive.duplicate-entry"

    // Bundle (.pkpasses)
    /// More than `PassBundle.maxPasses` passes in one bundle.
    public static let bundleTooManyPasses = "bundle.too-many-passes"
    /// A bundle with no .pkpass inside.
    public static let bundleEmpty = "bundle.empty"
    /// A bundle entry that is not a .pkpass file.
    public static let bundleUnexpectedEntry = "bundle.unexpected-entry"
    /// Two passes of one bundle with the same pass type ID and serial number.
    public static let bundleDuplicateSerial = "bundle.duplicate-serial"

    // Manifest
    public static let manifestMissing = "manifest.missing"
    /// manifest.json is not a JSON object of path → SHA-1 hex strings.
    public static let manifestInvalid = "manifest.invalid"
    public static let manifestHashMismatch = "manifest.hash-mismatch"
    public static let manifestMissingFile = "manifest.missing-file"
    public static let manifestUnlistedFile = "manifest.unlisted-file"

    // Signature
    public static let signatureMissing = "signature.missing"
    public static let signatureInvalid = "signature.invalid"
    public static let signatureNoSigningTime = "signature.no-signing-time"
    /// The signature carries the manifest inside instead of being detached.
    public static let signatureNotDetached = "signature.not-detached"

    // Certificates
    public static let certificateExpired = "certificate.expired"
    public static let certificateNotYetValid = "certificate.not-yet-valid"
    /// The signing time lies outside the signer's (or intermediate's) validity.
    public static let certificateInvalidWhenSigned = "certificate.invalid-when-signed"
    public static let certificateNoIntermediate = "certificate.no-intermediate"
    public static let certificateWrongIntermediate = "certificate.wrong-intermediate"
    public static let certificateIntermediateExpired = "certificate.intermediate-expired"
    public static let certificatePassTypeMismatch = "certificate.pass-type-mismatch"
    public static let certificateTeamMismatch = "certificate.team-mismatch"
    public static let certificateNotApple = "certificate.not-apple"
    public static let certificateNFCRequired = "certificate.nfc-required"
    /// The signer is not a Pass Type ID certificate (no pass-type extension, EKU or CN).
    public static let certificateNotPassType = "certificate.not-pass-type"

    // pass.json
    public static let passJSONMissing = "pass.json-missing"
    public static let passJSONInvalid = "pass.json-invalid"
    public static let passJSONLenient = "pass.json-lenient"
    public static let passNoStyle = "pass.no-style"
    public static let passMissingKey = "pass.missing-key"
    public static let passInvalidValue = "pass.invalid-value"
    public static let passDuplicateFieldKey = "pass.duplicate-field-key"
    public static let passTooManyFields = "pass.too-many-fields"
    /// personalization.json present but not valid (or without `nfc` / `webServiceURL`).
    public static let passPersonalizationInvalid = "pass.personalization-invalid"

    // Images
    public static let imageMissingIcon = "image.missing-icon"
    public static let imageNotPNG = "image.not-png"
    public static let imageWrongSize = "image.wrong-size"
    /// An image the pass's style never shows (e.g. strip.png on a generic pass).
    public static let imageNotShown = "image.not-shown"
    /// An image whose use on this layout Apple has not confirmed (background.png on a poster generic pass).
    public static let imageUnconfirmedSlot = "image.unconfirmed-slot"
    /// An image without the @2x or @3x version Apple asks for: the icon (Apple's validator recommends both) and
    /// a poster generic's artwork and primaryLogo.
    public static let imageMissingScale = PassProblemCode.missingImageScale
    /// A poster event ticket with neither artwork.png nor background.png (Apple's validator refuses to sign it).
    public static let imageMissingPosterArt = PassProblemCode.missingPosterArt

    // Localization
    public static let localizationInconsistent = "localization.inconsistent"
    /// A pass.strings file that does not parse.
    public static let localizationInvalidStrings = "localization.invalid-strings"
    /// A `.lproj` folder whose name is not a language ID.
    public static let localizationBadFolderName = "localization.bad-folder-name"
}
