import PassModel

/// The problem codes `passmint verify` reports. They are part of the public contract (DESIGN.md):
/// add new ones, never rename one.
public enum VerifyCode {
    // Archive
    public static let archiveUnreadable: ProblemCode = "archive.unreadable"
    public static let archiveJunkFile: ProblemCode = "archive.junk-file"
    public static let archiveNestedFolder: ProblemCode = "archive.nested-folder"
    /// An entry name with `\`, a leading `/` or a `..` component.
    public static let archiveBadPath: ProblemCode = "archive.bad-path"
    /// The same entry name twice in one zip.
    public static let archiveDuplicateEntry: ProblemCode = "archive.duplicate-entry"

    // Bundle (.pkpasses)
    /// More than `PassBundle.maxPasses` passes in one bundle.
    public static let bundleTooManyPasses: ProblemCode = "bundle.too-many-passes"
    /// A bundle with no .pkpass inside.
    public static let bundleEmpty: ProblemCode = "bundle.empty"
    /// A bundle entry that is not a .pkpass file.
    public static let bundleUnexpectedEntry: ProblemCode = "bundle.unexpected-entry"
    /// Two passes of one bundle with the same pass type ID and serial number.
    public static let bundleDuplicateSerial: ProblemCode = "bundle.duplicate-serial"

    // Manifest
    public static let manifestMissing: ProblemCode = "manifest.missing"
    /// manifest.json is not a JSON object of path → SHA-1 hex strings.
    public static let manifestInvalid: ProblemCode = "manifest.invalid"
    public static let manifestHashMismatch: ProblemCode = "manifest.hash-mismatch"
    public static let manifestMissingFile: ProblemCode = "manifest.missing-file"
    public static let manifestUnlistedFile: ProblemCode = "manifest.unlisted-file"

    // Signature
    public static let signatureMissing: ProblemCode = "signature.missing"
    public static let signatureInvalid: ProblemCode = "signature.invalid"
    public static let signatureNoSigningTime: ProblemCode = "signature.no-signing-time"
    /// The signature carries the manifest inside instead of being detached.
    public static let signatureNotDetached: ProblemCode = "signature.not-detached"

    // Certificates
    public static let certificateExpired: ProblemCode = "certificate.expired"
    public static let certificateNotYetValid: ProblemCode = "certificate.not-yet-valid"
    /// The signing time lies outside the signer's (or intermediate's) validity.
    public static let certificateInvalidWhenSigned: ProblemCode = "certificate.invalid-when-signed"
    public static let certificateNoIntermediate: ProblemCode = "certificate.no-intermediate"
    public static let certificateWrongIntermediate: ProblemCode = "certificate.wrong-intermediate"
    public static let certificateIntermediateExpired: ProblemCode = "certificate.intermediate-expired"
    public static let certificatePassTypeMismatch: ProblemCode = "certificate.pass-type-mismatch"
    public static let certificateTeamMismatch: ProblemCode = "certificate.team-mismatch"
    public static let certificateNotApple: ProblemCode = "certificate.not-apple"
    public static let certificateNFCRequired: ProblemCode = "certificate.nfc-required"
    /// The signer is not a Pass Type ID certificate (no pass-type extension, EKU or CN).
    public static let certificateNotPassType: ProblemCode = "certificate.not-pass-type"

    // pass.json
    public static let passJSONMissing: ProblemCode = "pass.json-missing"
    public static let passJSONInvalid = PassProblemCode.jsonInvalid
    public static let passJSONLenient = PassProblemCode.jsonLenient
    // The validator's codes, reported by verify too (declared once, in PassModel).
    public static let passNoStyle = PassProblemCode.noStyle
    public static let passMissingKey = PassProblemCode.missingKey
    public static let passInvalidValue = PassProblemCode.invalidValue
    public static let passDuplicateFieldKey = PassProblemCode.duplicateFieldKey
    public static let passTooManyFields = PassProblemCode.tooManyFields
    /// personalization.json present but not valid (or without `nfc` / `webServiceURL`).
    public static let passPersonalizationInvalid: ProblemCode = "pass.personalization-invalid"

    // Images
    public static let imageMissingIcon: ProblemCode = PassProblemCode.missingIcon
    public static let imageNotPNG: ProblemCode = "image.not-png"
    public static let imageWrongSize: ProblemCode = "image.wrong-size"
    /// An image the pass's style never shows (e.g. strip.png on a generic pass).
    public static let imageNotShown: ProblemCode = "image.not-shown"
    /// An image whose use on this layout Apple has not confirmed (background.png on a poster generic pass).
    public static let imageUnconfirmedSlot: ProblemCode = "image.unconfirmed-slot"
    /// An image without the @2x or @3x version Apple asks for: the icon (Apple's validator recommends both) and
    /// a poster generic's artwork and primaryLogo.
    public static let imageMissingScale: ProblemCode = PassProblemCode.missingImageScale
    /// A poster event ticket with neither artwork.png nor background.png (Apple's validator refuses to sign it).
    public static let imageMissingPosterArt: ProblemCode = PassProblemCode.missingPosterArt
    /// An image whose header declares far more pixels than its bytes can hold: a decompression bomb.
    public static let imageBomb: ProblemCode = "image.bomb"
    /// An image over the limits of member photos: more than 40 megapixels declared, or a file over 50 MB.
    public static let imageTooLarge: ProblemCode = "image.too-large"

    // Localization
    public static let localizationInconsistent: ProblemCode = "localization.inconsistent"
    /// A pass.strings file that does not parse.
    public static let localizationInvalidStrings: ProblemCode = "localization.invalid-strings"
    /// A `.lproj` folder whose name is not a language ID.
    public static let localizationBadFolderName: ProblemCode = "localization.bad-folder-name"
}
