extension PassValidator {
    /// Validates pass.json bytes as Wallet reads them: a syntax error is one `pass.json-invalid` error; each thing
    /// the lenient reader had to forgive (trailing comma, comment, BOM, …) is a `pass.json-lenient` error
    /// (§8 item 10); then every rule of `validate(_:)` runs on the leniently parsed value.
    /// - Parameter file: the name used in messages and as the path of document-level problems.
    public static func validate(passJSON bytes: [UInt8], file: String = "pass.json") -> [Problem] {
        let document: JSONDocument
        do {
            document = try JSONReader.parse(bytes, file: file)
        } catch {
            return [Problem(.error, PassProblemCode.jsonInvalid, error.description, path: file)]
        }
        return validate(document, file: file)
    }

    /// Validates an already parsed document: its leniencies as `pass.json-lenient` errors, then `validate(_:)`.
    public static func validate(_ document: JSONDocument, file: String = "pass.json") -> [Problem] {
        leniencyProblems(document.leniencies, file: file) + validate(document.value)
    }

    /// One `pass.json-lenient` error per leniency, naming line and column and what to change.
    public static func leniencyProblems(_ leniencies: [JSONLeniency], file: String = "pass.json") -> [Problem] {
        leniencies.map { l in
            let fix: String
            switch l.kind {
            case .trailingComma: fix = "remove the comma before the closing bracket"
            case .lineComment, .blockComment: fix = "remove the comment; JSON has no comments"
            case .missingComma: fix = "add the missing comma between the two members"
            case .controlCharacterInString: fix = "write line breaks and tabs inside strings as \\n and \\t"
            case .byteOrderMark: fix = "save the file as UTF-8 without a byte order mark"
            case .duplicateKey: fix = "keep only one of the duplicate keys"
            }
            let place = l.path.isEmpty ? "" : " in \(l.path)"
            return Problem(
                .error, PassProblemCode.jsonLenient,
                "\(file) line \(l.line), column \(l.column): \(l.kind.rawValue)\(place), which Wallet's strict JSON reader rejects; \(fix) (PassMint writes strict JSON when it builds a pass)",
                path: l.path.isEmpty ? file : l.path)
        }
    }
}

extension PassProblemCode {
    /// pass.json is not JSON at all, even leniently.
    public static let jsonInvalid: ProblemCode = "pass.json-invalid"
    /// pass.json needed the lenient reader (trailing commas, comments, …), which Wallet does not have.
    public static let jsonLenient: ProblemCode = "pass.json-lenient"
}

extension Problem {
    /// The problem as the `verify --json` contract writes it: `{"severity", "code", "message", "path"}`.
    public var jsonValue: JSONValue {
        [
            "severity": .string(severity.rawValue), "code": .string(code.rawValue), "message": .string(message),
            "path": .string(path),
        ]
    }
}
