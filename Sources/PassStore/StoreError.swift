import PassModel

/// Everything that can fail in a store: SQLite or PostgreSQL refusing, a store from a newer PassMint, a stored
/// value that does not read back.
package indirect enum StoreError: Error, CustomStringConvertible {
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
    case corruptRecord(serial: String, problem: CorruptRecord)
    /// The stored failures of a bulk update job do not decode; `underlying` is the decoder's error.
    case corruptUpdateJob(id: String, underlying: any Error)
    case passNotFound(serial: String)
    /// A PostgreSQL store location that is not a `postgresql://` URL (shown without its password).
    case invalidPostgresURL(redacted: String)
    /// A copy into a PostgreSQL store that already holds passes (it must be empty, so nothing is merged).
    case copyTargetNotEmpty(server: String, passes: Int)
    /// The SQLite store file cannot be opened or migrated; `underlying` is why.
    case cannotOpenFile(path: String, underlying: any Error)
    /// The PostgreSQL store cannot be opened or migrated; `underlying` is why.
    case cannotOpenServer(url: PostgresURL, underlying: any Error)
    /// A template name that cannot be stored in a `TemplateReference`.
    case invalidTemplateName(name: String, reason: TemplateNameProblem)
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
        case .corruptRecord(let serial, let problem):
            return "stored record of pass \(serial) is not a JSON object of strings (\(problem)); "
                + "issue the pass again into the store"
        case .corruptUpdateJob(let id, let underlying):
            return "stored record of pass update job \(id) is not a JSON object of strings (\(underlying)); "
                + "issue the pass again into the store"
        case .passNotFound(let serial):
            return
                "no stored pass has serial number \(serial); issue it into the store (generate or batch with a store) first"
        case .invalidPostgresURL(let redacted):
            return
                "invalid service configuration: a PostgreSQL store is given as postgresql://USER@HOST:PORT/DATABASE, "
                + "not '\(redacted)'"
        case .copyTargetNotEmpty(let server, let passes):
            return "invalid service configuration: the PostgreSQL store \(server) already holds \(passes) passes; copy "
                + "into an empty database"
        case .cannotOpenFile(let path, let underlying):
            return "\(path): cannot open the store: \(underlying)"
        case .cannotOpenServer(let url, let underlying):
            return "cannot open the PostgreSQL store \(url): \(underlying)"
        case .invalidTemplateName(let name, let reason):
            return "template name '\(name)' cannot be used: \(reason); name the template with letters, digits, "
                + "'.', '-' or '_'"
        case .templateVersionMissing(let reference):
            return "the store holds no template version \(reference); publish the template folder again, or "
                + "copy the store with its template_versions and template_files tables"
        }
    }
}

extension StoreError: Equatable {
    /// Equal by kind: the same case about the same pass, file or server (never the database's own message).
    package static func == (lhs: StoreError, rhs: StoreError) -> Bool {
        switch (lhs, rhs) {
        case (.database(let a, _, _), .database(let b, _, _)): return a == b
        case (.postgres(let a, _, _, let x), .postgres(let b, _, _, let y)): return a == b && x == y
        case (.databaseUnavailable(let a, _), .databaseUnavailable(let b, _)): return a == b
        case (.schemaTooNew(let a, let x, let k), .schemaTooNew(let b, let y, let l)): return a == b && x == y && k == l
        case (.corruptRecord(let a, _), .corruptRecord(let b, _)): return a == b
        case (.corruptUpdateJob(let a, _), .corruptUpdateJob(let b, _)): return a == b
        case (.passNotFound(let a), .passNotFound(let b)): return a == b
        case (.invalidPostgresURL(let a), .invalidPostgresURL(let b)): return a == b
        case (.copyTargetNotEmpty(let a, _), .copyTargetNotEmpty(let b, _)): return a == b
        case (.cannotOpenFile(let a, _), .cannotOpenFile(let b, _)): return a == b
        case (.cannotOpenServer(let a, _), .cannotOpenServer(let b, _)): return a == b
        case (.invalidTemplateName(let a, _), .invalidTemplateName(let b, _)): return a == b
        case (.templateVersionMissing(let a), .templateVersionMissing(let b)): return a == b
        default: return false
        }
    }
}

/// What is wrong with a stored record column.
package enum CorruptRecord: Sendable, Equatable, CustomStringConvertible {
    /// The column is not JSON.
    case notJSON(JSONSyntaxError)
    /// The JSON is not an object.
    case notAnObject
    /// The value of this key is not a string.
    case notAString(key: String)

    package var description: String {
        switch self {
        case .notJSON(let error): return error.message
        case .notAnObject: return "not a JSON object"
        case .notAString(let key): return "the value of '\(key)' is not a string"
        }
    }
}
