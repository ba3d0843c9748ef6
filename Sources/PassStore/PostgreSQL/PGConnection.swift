import Foundation
internal import CPostgreSQL

/// A value bound to a `$n` parameter, sent in PostgreSQL's text format (nil is SQL NULL).
typealias PGParameter = String?

/// Owner of one `PGconn*` (finished in deinit) and the names of the statements prepared on it.
///
/// Never used by two threads at once: `PostgresPool` hands each connection to one caller at a time. A
/// connection that broke (the server restarted) is dropped by the pool, and its replacement prepares its
/// statements again, so a restart of the database needs no restart of PassMint.
final class PGConnection: @unchecked Sendable {  // handed out exclusively by PostgresPool, one user at a time
    let handle: OpaquePointer  // internal: PGConnection+Notify.swift waits on its socket
    /// The server as it may be shown (no password).
    let server: String
    private var prepared: [String: String] = [:]

    /// Connects to `url` (a libpq connection URI or keyword string).
    /// - Throws: `StoreError.databaseUnavailable` with libpq's reason when the server cannot be reached or
    ///   refuses the login.
    init(url: String, server: String) throws(StoreError) {
        guard let handle = PQconnectdb(url) else {
            throw .databaseUnavailable(server: server, message: "out of memory")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(handle))
            PQfinish(handle)
            throw .databaseUnavailable(server: server, message: Self.oneLine(message))
        }
        self.handle = handle
        self.server = server
        // Notices (e.g. "relation already exists, skipping") would otherwise be printed on stderr by libpq.
        // Every PassMint statement is a lookup by key whose best plan does not depend on the values, so prepared
        // statements keep one generic plan instead of being planned again on each execution (planning cost more
        // than running the list query).
        _ = try execute("SET client_min_messages = warning; SET plan_cache_mode = force_generic_plan")
    }

    deinit { PQfinish(handle) }

    /// False once the connection to the server is lost.
    var isUsable: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Runs SQL text (one or more statements, no parameters) and returns the last statement's result.
    @discardableResult
    func execute(_ sql: String) throws(StoreError) -> PGResult {
        try checked(PQexec(handle, sql), operation: sql)
    }

    /// Runs one statement with parameters, prepared on this connection the first time it is used.
    @discardableResult
    func query(_ sql: String, _ parameters: [PGParameter] = []) throws(StoreError) -> PGResult {
        let name: String
        if let known = prepared[sql] {
            name = known
        } else {
            name = "pm\(prepared.count + 1)"
            try checked(PQprepare(handle, name, sql, Int32(parameters.count), nil), operation: sql)
            prepared[sql] = name
        }
        let result = Self.withCStrings(parameters) { values in
            PQexecPrepared(handle, name, Int32(parameters.count), values, nil, nil, 0)
        }
        return try checked(result, operation: sql)
    }

    /// Runs one statement with parameters, planned afresh on each call with the table sizes of that moment.
    ///
    /// For statements over tables whose size swings (the outbox: empty, then 10,000 rows a second later): a
    /// generic plan made while the outbox was empty (a nested loop that re-runs a locking subquery once per
    /// row) took seconds per claim and ignored its `LIMIT` once filled. Planning costs well under a
    /// millisecond, nothing next to such a statement.
    @discardableResult
    func queryPlanned(_ sql: String, _ parameters: [PGParameter] = []) throws(StoreError) -> PGResult {
        let result = Self.withCStrings(parameters) { values in
            PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        return try checked(result, operation: sql)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            if isUsable { _ = try? execute("ROLLBACK") }
            throw error
        }
    }

    private func checked(_ result: OpaquePointer?, operation: String) throws(StoreError) -> PGResult {
        guard let result else {
            throw failure(operation: operation, message: String(cString: PQerrorMessage(handle)), sqlState: "")
        }
        let owned = PGResult(takingOwnershipOf: result)
        if let (message, state) = owned.failure {
            throw failure(operation: operation, message: message, sqlState: state)
        }
        return owned
    }

    private func failure(operation: String, message: String, sqlState: String) -> StoreError {
        // Class 08 is "connection exception", 57P0x the server shutting down: the database is away, not the query wrong.
        if !isUsable || sqlState.hasPrefix("08") || sqlState.hasPrefix("57P") {
            return .databaseUnavailable(server: server, message: Self.oneLine(message))
        }
        let statement = operation.split(whereSeparator: \.isNewline).first.map(String.init) ?? operation
        return .postgres(
            server: server, operation: String(statement.trimmingCharacters(in: .whitespaces).prefix(60)),
            message: Self.oneLine(message), sqlState: sqlState)
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; ")
    }

    /// `PQexecPrepared` takes `const char * const *`: strdup'ed copies, freed after the call.
    private static func withCStrings<T>(
        _ values: [PGParameter], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> T
    ) -> T {
        let copies: [UnsafeMutablePointer<CChar>?] = values.map { $0.flatMap { strdup($0) } }
        defer { for copy in copies { free(copy) } }
        let constant = copies.map { UnsafePointer($0) }
        return constant.withUnsafeBufferPointer { buffer in
            body(buffer.baseAddress)
        }
    }
}
