/// Something a batch says once before its summary; worded by `description`.
public enum BatchWarning: Sendable, Equatable, CustomStringConvertible {
    /// About the signing identity (a certificate close to expiry, a chain checked against a test root), in
    /// PassSigning's words.
    case identity(String)
    /// About the template as it loaded (a key ignored, a file skipped), in PassTemplates' words.
    case template(String)
    /// A CSV column that is not a field of the template: it is ignored.
    case unknownColumn(String, csv: String, template: String, suggestion: String?)

    public var description: String {
        switch self {
        case .identity(let text), .template(let text):
            return text
        case .unknownColumn(let name, let csv, let template, let suggestion):
            let hint = suggestion.map { "; did you mean '\($0)'?" } ?? ""
            return "\(csv): column '\(name)' is not a field of template \(template)\(hint); it is ignored"
        }
    }
}
