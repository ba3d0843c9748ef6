import PassModel

/// Problems and notes collected while verifying one pass.
struct Findings {
    var problems: [Problem] = []
    var notes: [String] = []

    mutating func error(_ code: ProblemCode, _ message: String, path: String = "") {
        problems.append(Problem(.error, code, message, path: path))
    }

    mutating func warning(_ code: ProblemCode, _ message: String, path: String = "") {
        problems.append(Problem(.warning, code, message, path: path))
    }

    mutating func note(_ text: String) {
        notes.append(text)
    }

    func has(_ code: ProblemCode) -> Bool {
        problems.contains { $0.code == code }
    }
}
