/// The admin API's bearer token, read from the environment: the one place its rule lives.
///
/// Whoever holds the token can change every pass and push to every device, so a guessable one is refused at
/// start rather than accepted without a word. The token itself never appears in an error or a log line.
enum AdminToken {
    /// Shortest token accepted: 32 characters (`openssl rand -hex 16` at least; the docs suggest `-hex 32`).
    static let minimumLength = 32

    /// The token held in `variable`; nil when the variable is unset or empty (the admin API is then disabled).
    /// - Throws: `ServiceError.blankAdminToken` when the token holds whitespace, control characters or bytes
    ///   outside printable ASCII (an `Authorization` header cannot carry it intact, and 32 spaces are no secret);
    ///   `ServiceError.weakAdminToken` when it is shorter than `minimumLength`.
    static func load(from environment: [String: String], variable: String) throws(ServiceError) -> String? {
        guard let token = environment[variable], !token.isEmpty else { return nil }
        guard token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { throw .blankAdminToken(variable: variable) }
        guard token.count >= minimumLength else {
            throw .weakAdminToken(variable: variable, minimumLength: minimumLength)
        }
        return token
    }
}
