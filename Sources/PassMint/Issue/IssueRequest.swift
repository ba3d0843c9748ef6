import PassArchive
import PassModel
import PassTemplates

/// One pass to issue: the record (template field values) and the web-service binding, if any.
public struct IssueRequest: Sendable {
    /// Template field values (`--set`, `--data`, a CSV row). A `serialNumber` key sets the serial.
    public var record: [String: String]
    /// Overrides the serial number (`--serial`); otherwise `record["serialNumber"]`, else the template's literal one, else a new UUID.
    public var serialNumber: String?
    /// Base URL of the update service; when set, `authenticationToken` must be set too.
    public var webServiceURL: String?
    public var authenticationToken: String?
    /// Derive the legacy `generic` fallback from `posterGeneric` even when the template's tooling.json does not
    /// ask for it (see `PassTemplates.CompatibleFallback`).
    public var compatiblePass: Bool
    /// A record key that is neither a template field nor a reserved key fails the pass (with a did-you-mean)
    /// instead of being ignored with a warning: for values a person typed, where a typo would otherwise leave
    /// the template's value in place unnoticed.
    public var rejectsUnknownKeys: Bool
    /// A cancelled pass: pass.json gets `"voided": true`.
    public var voided: Bool
    /// The holder signed up (rewards enrollment): the pass leaves out `personalization.json` and its logo.
    public var personalized: Bool

    /// The key under which `IssuedPass.record` remembers `compatiblePass`, so a pass re-rendered from its stored
    /// record (serve, update) keeps its fallback. `@` keys are never template fields.
    public static let compatiblePassKey = "@compatiblePass"

    /// The folder relative image paths of the record (`image.SLOT` keys, image fields) start at and must stay
    /// inside; nil for the current directory.
    public var imageFolder: String?
    /// Record key → folder, for image paths that came from somewhere else than the rest (a data file's values
    /// start at its folder); keys not listed use `imageFolder`.
    public var imageFolders: [String: String]
    /// Per-record images the pass already has (file name → PNG bytes, e.g. a stored pass's `thumbnail@2x.png`):
    /// kept for every slot the record names no new image for, so a re-render needs no original photo.
    public var storedImages: [String: [UInt8]]

    public init(
        record: [String: String] = [:], serialNumber: String? = nil, webServiceURL: String? = nil,
        authenticationToken: String? = nil, compatiblePass: Bool = false, rejectsUnknownKeys: Bool = false,
        imageFolder: String? = nil, imageFolders: [String: String] = [:], storedImages: [String: [UInt8]] = [:],
        voided: Bool = false, personalized: Bool = false
    ) {
        self.voided = voided
        self.personalized = personalized
        self.compatiblePass = compatiblePass
        self.rejectsUnknownKeys = rejectsUnknownKeys
        self.record = record
        self.serialNumber = serialNumber
        self.webServiceURL = webServiceURL
        self.authenticationToken = authenticationToken
        self.imageFolder = imageFolder
        self.imageFolders = imageFolders
        self.storedImages = storedImages
    }
}

/// A signed pass in memory.
public struct IssuedPass: Sendable {
    public let serialNumber: String
    public let passTypeIdentifier: String
    /// The `.pkpass` archive in pieces (template assets are not copied into each pass); write it with
    /// `PassOutput.write(_:to:durable:)`.
    public let archiveParts: ArchiveParts
    /// The `.pkpass` archive bytes (joined on each access).
    public var archive: [UInt8] { archiveParts.bytes }
    /// The final pass.json as written.
    public let passJSON: JSONValue
    /// The typed model the issuer built while checking the pass, if it needed one (see `typedPass()`).
    let checkedPass: Pass?
    /// The template's pass.json, named by errors about `passJSON`.
    let passJSONFile: String
    /// The pass's other files as rendered (template files, tier images, pass.strings, per-record images), for a
    /// second rendering of the same pass (Google Wallet).
    public let files: [PassFile]
    /// The record after typing and defaults (what a store keeps to re-render the pass), with
    /// `IssueRequest.compatiblePassKey` when the pass was issued with `compatiblePass`.
    public let record: [String: String]
    /// The per-record images in the pass (file name → PNG bytes: `thumbnail.png`, `thumbnail@2x.png`, …), what a
    /// store keeps so the pass can be re-rendered without the original photo.
    public let images: [String: [UInt8]]
    /// Non-fatal findings: unknown record keys, identifier overrides, Wallet warnings.
    public let warnings: [String]

    /// `passJSON` as the typed model, for a second rendering of the same pass (Google Wallet); built on first
    /// request when issuing did not need it.
    /// - Throws: `PassMintError.renderedPass` when a value cannot be represented.
    public func typedPass() throws(PassMintError) -> Pass {
        try PassIssuer.typed(passJSON, checked: checkedPass, file: passJSONFile)
    }
}
