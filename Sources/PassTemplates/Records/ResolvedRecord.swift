/// A record checked against a template's fields: every value typed and normalised, defaults applied.
public struct ResolvedRecord: Sendable, Equatable {
    /// Field name → normalised value. Optional fields without value or default are absent. A non-empty
    /// `serialNumber` from the record is passed through unchanged (it is not a field; the caller decides
    /// whether to hand it to `RenderContext`).
    public var values: [String: String]
    /// Record keys that are not fields (ignored), each with a hint.
    public var warnings: [String]
    /// Image slot (`thumbnail`, `artwork`, …) → the record's image reference (a PNG/JPEG path, not yet resolved
    /// or read), from `image.SLOT` keys and `"type": "image"` fields. The caller turns each into `PassFile`s for
    /// `RenderContext.images`.
    public var images: [String: String]

    public init(values: [String: String], warnings: [String] = [], images: [String: String] = [:]) {
        self.values = values
        self.warnings = warnings
        self.images = images
    }
}
