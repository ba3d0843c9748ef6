/// The address of a PostgreSQL store: a libpq connection URI such as
/// `postgresql://passmint@db.internal:5432/passmint` or `postgresql:///passmint?host=/run/postgresql`.
///
/// `description` never shows a password: the user-info password and a `password=` query value are replaced
/// by `***`, so the value can be logged and put in error messages.
package struct PostgresURL: Sendable, CustomStringConvertible, Equatable {
    /// The full URI as libpq reads it (may contain a password: never print it).
    let connectionString: String

    /// Checks that `text` is a `postgres://` or `postgresql://` URI.
    /// - Throws: `StoreError.invalidPostgresURL` for anything else.
    package init(_ text: String) throws(StoreError) {
        guard text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") else {
            throw .invalidPostgresURL(redacted: Self.redact(text))
        }
        connectionString = text
    }

    /// Whether the URI itself carries a password (which then must not come from a command line).
    package var hasPassword: Bool { Self.redact(connectionString) != connectionString }

    /// The URI with any password replaced by `***`.
    package var description: String { Self.redact(connectionString) }

    /// Replaces the password of `scheme://user:password@host` and of `password=` parameters by `***`.
    static func redact(_ text: String) -> String {
        var result = text
        if let schemeEnd = result.range(of: "://") {
            let rest = result[schemeEnd.upperBound...]
            let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
            let authority = rest[..<authorityEnd]
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                result.replaceSubrange(result.index(after: colon)..<at, with: "***")
            }
        }
        var output = ""
        var remaining = Substring(result)
        while let range = remaining.range(of: "password=") {
            output += remaining[..<range.upperBound]
            output += "***"
            remaining = remaining[range.upperBound...]
            remaining = remaining[(remaining.firstIndex(where: { $0 == "&" || $0 == " " }) ?? remaining.endIndex)...]
        }
        return output + remaining
    }
}
