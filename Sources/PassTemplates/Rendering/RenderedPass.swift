import PassModel

/// One file of a pass other than pass.json, manifest.json and signature.
public struct PassFile: Sendable, Equatable {
    /// `/`-separated path inside the pass, e.g. `strip@2x.png` or `en.lproj/pass.strings`.
    public var path: String
    public var bytes: [UInt8]
    /// The bytes are the same for every pass of this template (images, pass.strings without placeholders), so a
    /// batch may compress them once. Tier images and substituted pass.strings are not shared.
    public var isSharedAsset: Bool
    /// Made for this record alone (a member photo scaled for its slot): never cached across passes.
    public var isPerRecord: Bool

    public init(path: String, bytes: [UInt8], isSharedAsset: Bool, isPerRecord: Bool = false) {
        self.path = path
        self.bytes = bytes
        self.isSharedAsset = isSharedAsset
        self.isPerRecord = isPerRecord
    }
}

/// A pass made from a template and a record, ready for the manifest and signature.
public struct RenderedPass: Sendable {
    /// The finished pass.json (serialise with `JSONWriter`).
    public var passJSON: JSONValue
    /// Every other file, sorted by path (byte-wise); pass.strings are UTF-16LE with a BOM.
    public var files: [PassFile]
    /// The record's warnings plus those of rendering (identifiers replaced by the certificate's). The template's
    /// own load warnings are in `Template.warnings`, not repeated here.
    public var warnings: [String]
    /// Which variant of the template's files this pass uses: the tier whose images it carries, or nil for the
    /// base files. Passes of one variant share every file that is not rendered per record.
    public var variant: String?

    public init(passJSON: JSONValue, files: [PassFile], warnings: [String], variant: String? = nil) {
        self.passJSON = passJSON
        self.files = files
        self.warnings = warnings
        self.variant = variant
    }
}
