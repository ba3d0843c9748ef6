/// Everything that can fail in the update service outside of a single HTTP request.
public enum ServiceError: Error, CustomStringConvertible, Equatable {
    /// SQLite refused an operation.
    case database(path: String, operation: String, message: String)
    /// A stored record column is not a JSON object of strings.
    case corruptRecord(serial: String, message: String)
    case passNotFound(serial: String)
    /// The HTTP server could not start.
    case serverStart(host: String, port: Int, message: String)
    /// Two routes in the table can match the same request.
    case routeConflict(String, String)
    case invalidConfiguration(String)
    /// The admin token in `variable` is too short to resist guessing (the token itself is never reported).
    case weakAdminToken(variable: String, minimumLength: Int)

    public var description: String {
        switch self {
        case .database(let path, let operation, let message):
            return "database \(path): \(operation) failed: \(message); check that the file is a PassMint store "
                + "and is writable"
        case .corruptRecord(let serial, let message):
            return "stored record of pass \(serial) is not a JSON object of strings (\(message)); "
                + "re-issue the pass with --db"
        case .passNotFound(let serial):
            return "no stored pass has serial number \(serial); issue it with `generate --db` or `batch --db` first"
        case .serverStart(let host, let port, let message):
            return "could not listen on \(host):\(port): \(message); pick another --port or --host"
        case .routeConflict(let a, let b):
            return "route \(a) clashes with route \(b): both match the same requests; change one pattern"
        case .invalidConfiguration(let message):
            return "invalid service configuration: \(message)"
        case .weakAdminToken(let variable, let minimumLength):
            return "the admin token in \(variable) is shorter than \(minimumLength) characters; set it to a random "
                + "value (e.g. `openssl rand -hex 32`), or unset \(variable) to disable the admin API"
        }
    }
}
