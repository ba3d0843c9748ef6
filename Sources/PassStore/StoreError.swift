/// Everything that can fail in a store: SQLite or PostgreSQL refusing, a store from a newer PassMint, a stored
/// value that does not read back.
package enum StoreError: Error, CustomStringConvertible, Equatable {
    /// SQLite refused an operation.
    case database(path: String, operation: String, message: String)
    /// PostgreSQL refused a statement (`sqlState` is its SQLSTATE code).
    case postgres(server: String, operation: String, message: String, sqlState: String)
    /// The PostgreSQL server cannot be reached, refused the login, or the connection to it was lost. Requests
    /// get 503 while it lasts; the pool reconnects once the server is back.
    case databaseUnavailable(server: String, message: String)
    /// The store was migrated by a newer PassMint than this one.
    case schemaTooNew(server: String, found: Int, known: Int)
    /// A stored record column is not a JSON object of strings.
    case corruptRecord(serial: String, message: String)
    case passNotFound(serial: String)
    /// A store location or copy that cannot be used (a malformed PostgreSQL URL, a copy into a store that holds
    /// passes).
    case invalidConfiguration(String)
    /// A template name that cannot be stored in a `TemplateReference`.
    case invalidTemplateName(name: String, reason: String)
    /// A stored pass names a template version the store does not hold.
    case templateVersionMissing(reference: String)

    package var description: String {
        switch self {
        case .database(let path, let operation, let message):
            return "database \(path): \(operation) failed: \(message); check that the file is a PassMint store "
                + "and is writable"
        case .postgres(let server, let operation, let message, let sqlState):
            return "PostgreSQL \(server): \(operation) failed: \(message) (SQLSTATE \(sqlState)); check that the "
                + "database belongs to PassMint and that its user may write to it"
        case .databaseUnavailable(let server, let message):
            return "PostgreSQL \(server) cannot be reached: \(message); check that the server runs and accepts "
                + "this user (password from the URL's environment variable or PGPASSFILE)"
        case .schemaTooNew(let server, let found, let known):
            return "PostgreSQL \(server) holds schema version \(found), but this PassMint knows versions up to "
                + "\(known); upgrade PassMint on this machine"
        case .corruptRecord(let serial, let message):
            return "stored record of pass \(serial) is not a JSON object of strings (\(message)); "
                + "issue the pass again into the store"
        case .passNotFound(let serial):
            return
                "no stored pass has serial number \(serial); issue it into the store (generate or batch with a store) first"
        case .invalidConfiguration(let message):
            return "invalid service configuration: \(message)"
        case .invalidTemplateName(let name, let reason):
            return "template name '\(name)' cannot be used: \(reason); name the template with letters, digits, "
                + "'.', '-' or '_'"
        case .templateVersionMissing(let reference):
            return "the store holds no template version \(reference); publish the template folder again, or "
                + "copy the store with its template_versions and template_files tables"
        }
    }
}
