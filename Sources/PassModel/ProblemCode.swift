/// A stable machine-readable problem code such as `pass.missing-key`: the one type of the codes the validator,
/// `passmint verify` and `passmint lint` report. The codes are a public contract (DESIGN.md): add new ones, never
/// rename one. Each is declared once, as a static member of the namespace of the tool that reports it
/// (`PassProblemCode`, `VerifyCode`, `LintCode`); a tool that reports another's code refers to that declaration.
public struct ProblemCode: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The code as reports and JSON show it.
    public let rawValue: String

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        rawValue = value
    }

    public var description: String { rawValue }

    /// Whether the code is the one written as `text` (reports and JSON carry the text).
    public static func == (code: ProblemCode, text: String) -> Bool { code.rawValue == text }
}
