/// A validation or verification finding. Shared by lint, verify and generate.
///
/// `code` is part of PassMint's public contract (e.g. `pass.invalid-value`); never rename one.
public struct Problem: Sendable, Hashable, CustomStringConvertible {
    /// How bad a finding is: errors make Wallet refuse the pass (or make PassMint refuse to build it),
    /// warnings are worth fixing but the pass still installs.
    public enum Severity: String, Sendable {
        case error, warning
    }

    public var severity: Severity
    /// A stable machine-readable code such as `pass.missing-key`.
    public var code: ProblemCode
    /// What is wrong and what to write instead.
    public var message: String
    /// A JSON path such as `storeCard.primaryFields[0].value`, or a file name; empty for the whole document.
    public var path: String

    /// Creates a finding.
    public init(_ severity: Severity, _ code: ProblemCode, _ message: String, path: String) {
        self.severity = severity
        self.code = code
        self.message = message
        self.path = path
    }

    public var description: String {
        "\(severity.rawValue) \(code)" + (path.isEmpty ? "" : " at \(path)") + ": \(message)"
    }
}

extension Problem {
    /// True for `.error` findings.
    public var isError: Bool { severity == .error }
}
