internal import CSQLite

/// Owner of one `sqlite3*` connection (closed in deinit) and its prepared-statement cache.
///
/// Opened with SQLITE_OPEN_NOMUTEX: a connection is never used by two threads at once, the pool guarantees it.
// @unchecked Sendable: handed out exclusively by SQLiteConnectionPool, one user at a time.
final class SQLiteConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    let path: String
    private var statements: [String: SQLiteStatement] = [:]

    /// Process-wide SQLite settings, made once before the first connection opens (SQLite takes them only before
    /// it initializes itself). Every statement that writes rows through a trigger or an upsert keeps a statement
    /// journal: the original of each page it changes, for its own rollback. Past 64 KiB (SQLite's default) that
    /// journal becomes a temporary file for the rest of the transaction, and a write of thousands of rows then
    /// spends most of its time in `pwrite` to that file. 1 MiB keeps one statement's journal in memory.
    private static let processSettings: Void = {
        _ = pm_sqlite3_config_statement_journal_spill(1 << 20)
    }()

    init(path: String, busyTimeoutMilliseconds: Int32) throws(StoreError) {
        Self.processSettings
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(db)
            throw .database(path: path, operation: "open", message: message)
        }
        self.handle = db
        self.path = path
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=NORMAL")
        try execute("PRAGMA foreign_keys=OFF")
        // 8 MB of page cache (SQLite's default is 2 MB): at 100,000 registrations the pages the list and
        // download lookups touch stay in memory.
        try execute("PRAGMA cache_size=-8000")
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs SQL text (one or more statements, no parameters, results ignored).
    func execute(_ sql: String) throws(StoreError) {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw .database(path: path, operation: "execute \(sql.prefix(60))", message: text)
        }
    }

    /// Runs `body` with the cached prepared statement for `sql`, reset afterwards.
    func withStatement<T>(_ sql: String, _ body: (SQLiteStatement) throws -> T) throws -> T {
        let statement: SQLiteStatement
        if let cached = statements[sql] {
            statement = cached
        } else {
            statement = try SQLiteStatement(database: handle, sql: sql, path: path)
            statements[sql] = statement
        }
        defer { statement.reset() }
        return try body(statement)
    }

    /// Rows changed by the last INSERT/UPDATE/DELETE on this connection.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs `body` inside a savepoint of the open transaction: released on success, rolled back (alone) on error.
    func savepoint<T>(_ body: () throws -> T) throws -> T {
        try withStatement("SAVEPOINT write") { try $0.run() }
        do {
            let result = try body()
            try withStatement("RELEASE write") { try $0.run() }
            return result
        } catch {
            try? withStatement("ROLLBACK TO write") { try $0.run() }
            try? withStatement("RELEASE write") { try $0.run() }
            throw error
        }
    }
}
