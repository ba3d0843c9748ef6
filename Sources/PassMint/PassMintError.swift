import PassModel

/// Why the pipeline could not issue, verify or inspect a pass. Each message says what to do next.
public enum PassMintError: Error, CustomStringConvertible {
    /// The template, the record or the resulting pass is invalid (CLI exit 1).
    case invalidInput(String)
    /// The rendered pass breaks Wallet's rules; each problem carries its JSON path.
    case invalidPass(file: String, problems: [Problem])
    /// Something in the environment is missing or broken: certificate files, output folder (CLI exit 3).
    case environment(String)

    public var description: String {
        switch self {
        case .invalidInput(let m), .environment(let m):
            return m
        case .invalidPass(let file, let problems):
            let lines = problems.map { "  \($0.severity.rawValue) \($0.code) at \($0.path.isEmpty ? file : $0.path): \($0.message)" }
            return "\(file) is not a valid pass; fix the template or the values:\n" + lines.joined(separator: "\n")
        }
    }

    /// True for failures caused by the input rather than the environment.
    public var isInvalidInput: Bool {
        if case .environment = self { return false }
        return true
    }
}
