import PassModel

/// One finding of the design review: what the pass has now, the exact replacement, and what the holder will see
/// differently. `code` is stable (see `LintCode`); `path` is the JSON path or file it is about.
public struct LintRow: Sendable, Hashable {
    public var code: ProblemCode
    public var path: String
    /// The actual value, quoted, or `—` when something is missing.
    public var before: String
    /// The exact replacement to write.
    public var after: String
    /// What the pass holder will see differently.
    public var change: String

    public init(_ code: ProblemCode, path: String, before: String, after: String, change: String) {
        self.code = code
        self.path = path
        self.before = before
        self.after = after
        self.change = change
    }

    /// The `—` used in Before when a value is missing.
    public static let missing = "—"
}
