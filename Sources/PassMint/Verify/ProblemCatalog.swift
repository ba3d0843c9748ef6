import PassModel

/// Every problem code `verify` (and the self-check of `generate` and `batch`) reports: its severity, what it means,
/// and whether it carries a rule of Apple's own validator (`AppleValidatorRules`). `verify --help` prints it.
public enum ProblemCatalog {
    /// One code of the catalogue.
    public struct Entry: Sendable {
        /// The stable code, e.g. `pass.poster-nfc`.
        public var code: ProblemCode
        /// "E" error, "W" warning, "E/W" either, depending on the case.
        public var severity: String
        /// What the code means, in a few words.
        public var meaning: String

        /// True when a rule of Apple's validator is reported with this code.
        public var isAppleRule: Bool { AppleValidatorRules.all.contains { $0.code == code } }
    }

    private static func e(_ code: ProblemCode, _ meaning: String) -> Entry {
        Entry(code: code, severity: "E", meaning: meaning)
    }
    private static func w(_ code: ProblemCode, _ meaning: String) -> Entry {
        Entry(code: code, severity: "W", meaning: meaning)
    }
    private static func ew(_ code: ProblemCode, _ meaning: String) -> Entry {
        Entry(code: code, severity: "E/W", meaning: meaning)
    }

    /// Every code, grouped as `verify` checks: archive, bundle, manifest, signature, certificates, pass.json,
    /// images, localization.
    public static let entries: [Entry] = [
        ew(VerifyCode.archiveUnreadable, "not a readable zip, an entry over a limit, or an unreadable entry"),
        e(VerifyCode.archiveJunkFile, ".DS_Store, __MACOSX or another junk file in the archive"),
        e(VerifyCode.archiveNestedFolder, "the files sit in a folder instead of at the root"),
        e(VerifyCode.archiveBadPath, "an entry name with \\, a leading / or a .. component"),
        e(VerifyCode.archiveDuplicateEntry, "the same entry name twice"),
        e(VerifyCode.bundleTooManyPasses, "a .pkpasses with more passes than allowed"),
        e(VerifyCode.bundleEmpty, "a .pkpasses with no .pkpass inside"),
        ew(VerifyCode.bundleUnexpectedEntry, "a bundle entry that is not a .pkpass"),
        e(VerifyCode.bundleDuplicateSerial, "two passes of a bundle with one pass type ID and serial"),
        e(VerifyCode.manifestMissing, "no manifest.json"),
        e(VerifyCode.manifestInvalid, "manifest.json is not an object of path → SHA-1 hex"),
        e(VerifyCode.manifestHashMismatch, "a file's SHA-1 differs from the manifest"),
        e(VerifyCode.manifestMissingFile, "listed in the manifest, not in the archive"),
        e(VerifyCode.manifestUnlistedFile, "in the archive, not listed in the manifest"),
        e(VerifyCode.signatureMissing, "no signature file"),
        ew(VerifyCode.signatureInvalid, "the signature does not verify over manifest.json"),
        e(VerifyCode.signatureNoSigningTime, "the signature has no signingTime attribute"),
        e(VerifyCode.signatureNotDetached, "the signature carries the manifest instead of being detached"),
        e(VerifyCode.certificateExpired, "the Pass Type ID certificate has expired"),
        e(VerifyCode.certificateNotYetValid, "a certificate is not valid yet"),
        e(VerifyCode.certificateInvalidWhenSigned, "a certificate was not valid at the signing time"),
        e(VerifyCode.certificateNoIntermediate, "the signature embeds no WWDR intermediate"),
        e(VerifyCode.certificateWrongIntermediate, "the embedded intermediate did not issue the signer"),
        e(VerifyCode.certificateIntermediateExpired, "the WWDR intermediate has expired"),
        e(VerifyCode.certificatePassTypeMismatch, "passTypeIdentifier differs from the certificate's"),
        e(VerifyCode.certificateTeamMismatch, "teamIdentifier differs from the certificate's team (OU)"),
        ew(VerifyCode.certificateNotApple, "the chain does not lead to Apple WWDR (a warning for a dev pass)"),
        e(VerifyCode.certificateNFCRequired, "nfc or personalization.json without a certificate with NFC"),
        e(VerifyCode.certificateNotPassType, "the signer is not a Pass Type ID certificate"),
        e(VerifyCode.passJSONMissing, "no pass.json at the root"),
        e(VerifyCode.passJSONInvalid, "pass.json is not JSON"),
        ew(VerifyCode.passJSONLenient, "trailing commas, comments, … a strict reader rejects"),
        e(VerifyCode.passNoStyle, "no style key, or more than one legacy style"),
        e(VerifyCode.passMissingKey, "a required key, or a field's key or value, is missing"),
        ew(VerifyCode.passInvalidValue, "a wrong type or a value Wallet does not accept or ignores"),
        e(VerifyCode.passDuplicateFieldKey, "two fields share a key"),
        w(VerifyCode.passTooManyFields, "more fields in a group than Wallet shows"),
        e(VerifyCode.passPersonalizationInvalid, "personalization.json invalid, or without nfc/webServiceURL"),
        w(PassProblemCode.unknownKey, "a key PassMint does not know (kept)"),
        w(PassProblemCode.posterFallback, "a poster event ticket lacks a tag its poster needs: classic layout"),
        w(PassProblemCode.posterNFC, "a poster event ticket without nfc (Apple refuses to sign it)"),
        w(PassProblemCode.posterNFCAuthentication, "a poster ticket's nfc without requiresAuthentication"),
        w(PassProblemCode.semanticBoardingFallback, "a semantic boarding pass lacks a tag it needs: classic layout"),
        w(PassProblemCode.semanticsRecommended, "a semantic tag Apple's validator recommends for the layout"),
        w(PassProblemCode.numberFormatConflict, "a field with both currencyCode and numberStyle"),
        w(PassProblemCode.posterNoFallback, "posterGeneric without a legacy style for iOS 26 and earlier"),
        w(PassProblemCode.posterFallbackStyle, "posterGeneric beside a fallback Apple does not name"),
        w(PassProblemCode.groupNotShown, "a field group the style does not draw"),
        w(PassProblemCode.unconfirmedKey, "a key Apple's reference pages do not confirm"),
        w(PassProblemCode.tooManyActions, "more than two featuredActions"),
        w(PassProblemCode.duplicateActionIdentifier, "two featuredActions with one identifier"),
        w(PassProblemCode.actionsNotShown, "featuredActions on a layout reported not to show them"),
        w(PassProblemCode.barcodeMessage, "a barcode message the symbology cannot encode"),
        e(VerifyCode.imageMissingIcon, "no icon.png"),
        ew(VerifyCode.imageNotPNG, "a .png that is not PNG (error), or an image in another format"),
        w(VerifyCode.imageWrongSize, "an image not the size its slot expects"),
        w(VerifyCode.imageNotShown, "an image the pass's style never shows"),
        w(VerifyCode.imageUnconfirmedSlot, "an image whose use on this layout Apple has not confirmed"),
        w(VerifyCode.imageMissingScale, "no @2x or @3x of the icon (or of poster generic art)"),
        w(VerifyCode.imageMissingPosterArt, "a poster event ticket with neither artwork nor background"),
        e(VerifyCode.imageBomb, "an image declaring far more pixels than its bytes hold (decompression bomb)"),
        e(VerifyCode.imageTooLarge, "an image over 40 megapixels or 50 MB (the member photos' limits)"),
        w(VerifyCode.localizationInconsistent, ".lproj folders with different keys or image sets"),
        e(VerifyCode.localizationInvalidStrings, "a pass.strings that does not parse"),
        w(VerifyCode.localizationBadFolderName, "a .lproj folder whose name is not a language ID"),
    ]

    /// The catalogue as text: one line per code, `code  severity  A  meaning` (A: also a rule of Apple's
    /// validator).
    public static func text(indent: String = "  ") -> String {
        let width = (entries.map(\.code.rawValue.count).max() ?? 0) + 2
        return entries.map { entry in
            let code = entry.code.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
            let severity = entry.severity.padding(toLength: 4, withPad: " ", startingAt: 0)
            return indent + code + severity + (entry.isAppleRule ? "A  " : "   ") + entry.meaning
        }.joined(separator: "\n")
    }
}
