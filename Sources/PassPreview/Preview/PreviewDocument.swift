/// A finished preview page: self-contained HTML and the window size its screenshot needs.
public struct PreviewDocument: Sendable {
    public var html: String
    /// CSS pixels; the PNG is 3× this.
    public var width: Int
    /// CSS pixels; the PNG is 3× this. A back's height depends on its text, so it is measured when `measure` is set.
    public var height: Int
    /// The height is a lower bound: measure the page in the browser before the screenshot.
    public var measure: Bool
    /// What the preview drew differently from pass.json, and why (for the CLI to print).
    public var notes: [String]
}
