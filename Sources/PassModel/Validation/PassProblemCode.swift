/// The problem codes PassModel reports. They are a public contract: add new ones, never rename.
public enum PassProblemCode {
    /// No style key, or more than one.
    public static let noStyle = "pass.no-style"
    /// A required key, or a field's key or value, is missing.
    public static let missingKey = "pass.missing-key"
    /// A value has the wrong type or a value Wallet does not accept.
    public static let invalidValue = "pass.invalid-value"
    /// Two fields share a key (keys are unique across the whole pass).
    public static let duplicateFieldKey = "pass.duplicate-field-key"
    /// More fields in a group than Wallet displays (warning).
    public static let tooManyFields = "pass.too-many-fields"
    /// A key PassMint does not know (warning; the key is kept).
    public static let unknownKey = "pass.unknown-key"
    /// A poster event ticket lacks what the poster layout needs, so Wallet silently shows the classic layout.
    public static let posterFallback = "pass.poster-fallback"
}
