/// Everything that can fail in the update service outside of a single HTTP request.
public enum ServiceError: Error, CustomStringConvertible, Equatable {
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
    /// The HTTP server could not start.
    case serverStart(host: String, port: Int, message: String)
    /// Two routes in the table can match the same request.
    case routeConflict(String, String)
    case invalidConfiguration(String)
    /// The admin token in `variable` is too short to resist guessing (the token itself is never reported).
    case weakAdminToken(variable: String, minimumLength: Int)
    /// The admin token in `variable` is blank or holds whitespace or control characters, which an `Authorization`
    /// header cannot carry intact (the token itself is never reported).
    case blankAdminToken(variable: String)
    /// The access log file cannot be opened for appending.
    case accessLog(path: String, message: String)
    /// The libmicrohttpd this program runs with was built without TLS.
    case tlsUnavailable
    /// A TLS certificate or key file cannot be used (the key's content is never reported).
    case tlsFile(path: String, problem: TLSFileProblem)
    /// The TLS private key is not the key of the certificate.
    case tlsKeyMismatch(certificatePath: String, keyPath: String)
    /// A template name that cannot be stored in a `TemplateReference`.
    case invalidTemplateName(name: String, reason: String)
    /// A stored pass names a template version the store does not hold.
    case templateVersionMissing(reference: String)
    /// An amount to add that is not a whole number, or a field that holds none (the default record validator).
    case invalidAmount(field: String, amount: String)

    public var description: String {
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
        case .serverStart(let host, let port, let message):
            return "could not listen on \(host):\(port): \(message); pick another port or address"
        case .routeConflict(let a, let b):
            return "route \(a) clashes with route \(b): both match the same requests; change one pattern"
        case .invalidConfiguration(let message):
            return "invalid service configuration: \(message)"
        case .accessLog(let path, let message):
            return "cannot open the access log \(path) for appending: \(message); choose a file in a writable folder"
        case .tlsUnavailable:
            return "the libmicrohttpd on this system was built without TLS (MHD_FEATURE_TLS); install one built with "
                + "GnuTLS (Debian's libmicrohttpd12 is), or terminate TLS in a reverse proxy in front of the service"
        case .tlsFile(let path, let problem):
            return "TLS \(problem.kind.rawValue) \(path) \(problem); \(problem.fix)"
        case .tlsKeyMismatch(let certificatePath, let keyPath):
            return "the TLS private key \(keyPath) does not belong to the certificate \(certificatePath) (its first "
                + "certificate must be the server's own); give the key the certificate was issued for"
        case .weakAdminToken(let variable, let minimumLength):
            return "the admin token in \(variable) is shorter than \(minimumLength) characters; set it to a random "
                + "value (e.g. `openssl rand -hex 32`), or unset \(variable) to disable the admin API"
        case .blankAdminToken(let variable):
            return "the admin token in \(variable) is blank or contains whitespace or control characters; set it to "
                + "a random value (e.g. `openssl rand -hex 32`), or unset \(variable) to disable the admin API"
        case .invalidTemplateName(let name, let reason):
            return "template name '\(name)' cannot be used: \(reason); name the template with letters, digits, "
                + "'.', '-' or '_'"
        case .invalidAmount(let field, let amount):
            return "cannot add \(amount) to \(field): both must be whole numbers"
        case .templateVersionMissing(let reference):
            return "the store holds no template version \(reference); publish the template folder again, or "
                + "copy the store with its template_versions and template_files tables"
        }
    }
}

/// What is wrong with a TLS certificate or key file.
public enum TLSFileProblem: Equatable, Sendable, CustomStringConvertible {
    /// The file cannot be read.
    case unreadable(kind: Kind, reason: String)
    /// The file is not PEM text (libmicrohttpd takes PEM only).
    case notPEM(kind: Kind)
    /// PEM, but OpenSSL cannot parse a certificate or key from it.
    case invalid(kind: Kind, openSSL: String)
    /// The private key is encrypted; the server needs it in the clear.
    case encryptedKey

    /// Which of the two files.
    public enum Kind: String, Sendable {
        case certificate
        case privateKey = "private key"
    }

    /// The file the problem is in.
    public var kind: Kind {
        switch self {
        case .unreadable(let kind, _), .notPEM(let kind), .invalid(let kind, _): kind
        case .encryptedKey: .privateKey
        }
    }

    public var description: String {
        switch self {
        case .unreadable(_, let reason): "cannot be read (\(reason))"
        case .notPEM: "is not PEM text (no -----BEGIN line)"
        case .invalid(let kind, let text): "holds no \(kind.rawValue) OpenSSL can read (\(text))"
        case .encryptedKey: "is encrypted"
        }
    }

    var fix: String {
        switch self {
        case .unreadable: "check the path and its permissions"
        case .notPEM(.certificate): "convert it with `openssl x509 -inform DER -in FILE -out FILE.pem`"
        case .notPEM(.privateKey): "convert it with `openssl pkey -inform DER -in FILE -out FILE.pem`"
        case .invalid(.certificate, _): "give the server certificate, then its intermediates, as PEM"
        case .invalid(.privateKey, _): "give the server certificate's private key as PEM"
        case .encryptedKey: "decrypt it with `openssl pkey -in FILE -out FILE.plain` and make that file mode 0600"
        }
    }
}
