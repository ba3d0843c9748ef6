/// Everything that can fail while the update service is set up or validates a change, outside of a single HTTP
/// request (the store's and the HTTP server's own failures are `StoreError` and `HTTPServerError`).
package enum ServiceError: Error, CustomStringConvertible, Equatable {
    /// The admin token in `variable` is too short to resist guessing (the token itself is never reported).
    case weakAdminToken(variable: String, minimumLength: Int)
    /// The admin token in `variable` is blank or holds whitespace or control characters, which an `Authorization`
    /// header cannot carry intact (the token itself is never reported).
    case blankAdminToken(variable: String)
    /// An amount to add that is not a whole number, or a field that holds none (the default record validator).
    case invalidAmount(field: String, amount: String)

    package var description: String {
        switch self {
        case .weakAdminToken(let variable, let minimumLength):
            return "the admin token in \(variable) is shorter than \(minimumLength) characters; set it to a random "
                + "value (e.g. `openssl rand -hex 32`), or unset \(variable) to disable the admin API"
        case .blankAdminToken(let variable):
            return "the admin token in \(variable) is blank or contains whitespace or control characters; set it to "
                + "a random value (e.g. `openssl rand -hex 32`), or unset \(variable) to disable the admin API"
        case .invalidAmount(let field, let amount):
            return "cannot add \(amount) to \(field): both must be whole numbers"
        }
    }
}
