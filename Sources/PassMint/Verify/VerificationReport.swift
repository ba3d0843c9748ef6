import PassModel

/// Everything `PassVerifier` found about one pass: what it is and why Wallet would refuse it.
public struct VerificationReport: Sendable {
    /// The file as named to the user; a pass inside a bundle is "bundle.pkpasses:inner.pkpass".
    public var file: String
    /// The pass style key found in pass.json (`storeCard`, …), when exactly one is present; `posterGeneric` when
    /// that stands beside one legacy style (the one iOS 27 shows).
    public var style: String?
    /// The legacy style iOS 26 and earlier show beside `posterGeneric`; nil on an ordinary pass. Not part of the
    /// `--json` object, whose keys are a contract.
    public var fallbackStyle: String?
    /// `passTypeIdentifier` from pass.json.
    public var passTypeIdentifier: String?
    /// `serialNumber` from pass.json.
    public var serialNumber: String?
    /// Errors first, then warnings, each in the order found.
    public var problems: [Problem]
    /// True when the signer is a PassMint development certificate (`passmint certs dev`): fine for tests,
    /// refused by every iPhone.
    public var isDevelopmentPass: Bool
    /// Facts worth telling that are not problems, e.g. "signature was valid when made (signing time …)".
    public var notes: [String]

    /// Creates a report; `problems` are sorted errors first (stable).
    public init(
        file: String, style: String? = nil, fallbackStyle: String? = nil, passTypeIdentifier: String? = nil,
        serialNumber: String? = nil, problems: [Problem] = [], isDevelopmentPass: Bool = false, notes: [String] = []
    ) {
        self.file = file
        self.style = style
        self.fallbackStyle = fallbackStyle
        self.passTypeIdentifier = passTypeIdentifier
        self.serialNumber = serialNumber
        self.problems = problems.filter(\.isError) + problems.filter { !$0.isError }
        self.isDevelopmentPass = isDevelopmentPass
        self.notes = notes
    }

    /// True when no problem has error severity (warnings do not stop Wallet).
    public var valid: Bool { !problems.contains(where: \.isError) }

    /// The error-severity problems.
    public var errors: [Problem] { problems.filter(\.isError) }

    /// The warning-severity problems.
    public var warnings: [Problem] { problems.filter { !$0.isError } }

    /// The problem codes, in report order (handy in tests and scripts).
    public var codes: [ProblemCode] { problems.map(\.code) }

    /// The `passmint verify --json` object: `{"file", "valid", "style", "passTypeIdentifier", "serialNumber",
    /// "problems": [{"severity", "code", "message", "path"}]}`; absent values are JSON null.
    public var jsonValue: JSONValue {
        func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
        return .object([
            "file": .string(file),
            "valid": .bool(valid),
            "style": optional(style),
            "passTypeIdentifier": optional(passTypeIdentifier),
            "serialNumber": optional(serialNumber),
            "problems": .array(
                problems.map { problem in
                    .object([
                        "severity": .string(problem.severity.rawValue),
                        "code": .string(problem.code.rawValue),
                        "message": .string(problem.message),
                        "path": .string(problem.path),
                    ])
                }),
        ])
    }
}
