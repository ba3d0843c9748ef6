/// A line of text in a box of fixed width: the whole text, or what of it fits before "…".
public struct FittedText: Sendable, Hashable {
    /// The text with its white space collapsed, as the line shows it when nothing is cut.
    public let full: String
    /// The characters shown before the "…" (all of `full` when nothing is cut).
    public let kept: String
    /// True when the box is too narrow for `full`.
    public let isCut: Bool
    /// False when not even "…" fits (the box shows nothing).
    var ellipsisFits = true

    /// What the box shows.
    public var shown: String {
        guard isCut else { return full }
        return ellipsisFits ? kept + "\u{2026}" : ""
    }
}
