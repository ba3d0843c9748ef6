internal import CSQLite

/// Owner of one prepared statement; finalized in deinit. Cached and reused by its `SQLiteConnection`.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private let database: OpaquePointer
    let sql: String
    private let path: String

    init(database: OpaquePointer, sql: String, path: String) throws(StoreError) {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            let message = String(cString: sqlite3_errmsg(database))
            sqlite3_finalize(statement)
            throw .database(path: path, operation: "prepare \(sql.prefix(60))", message: message)
        }
        self.handle = statement
        self.database = database
        self.sql = sql
        self.path = path
    }

    deinit { sqlite3_finalize(handle) }

    /// Makes the statement ready for the next use.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func bind(_ index: Int32, _ value: String) throws(StoreError) {
        var value = value
        let rc = value.withUTF8 { utf8 in
            pm_sqlite3_bind_text_transient(handle, index, utf8.baseAddress, Int32(utf8.count))
        }
        try check(rc, "bind")
    }

    /// Binds text, or NULL for nil.
    func bind(_ index: Int32, _ value: String?) throws(StoreError) {
        guard let value else { return try check(sqlite3_bind_null(handle, index), "bind") }
        try bind(index, value)
    }

    func bind(_ index: Int32, blob: [UInt8]) throws(StoreError) {
        let rc = blob.withUnsafeBytes { pm_sqlite3_bind_blob_transient(handle, index, $0.baseAddress, Int32($0.count)) }
        try check(rc, "bind")
    }

    func bind(_ index: Int32, _ value: Int64) throws(StoreError) {
        try check(sqlite3_bind_int64(handle, index, value), "bind")
    }

    func bind(_ index: Int32, _ value: Int) throws(StoreError) {
        try bind(index, Int64(value))
    }

    /// Steps once; true when a row is available.
    func step() throws(StoreError) -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw error("step")
    }

    /// Runs a statement that returns no rows.
    func run() throws(StoreError) {
        while try step() {}
    }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    /// The column's text, nil for NULL.
    func optionalString(_ column: Int32) -> String? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : string(column)
    }

    func string(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    func blob(_ column: Int32) -> [UInt8] {
        guard let bytes = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column))))
    }

    private func check(_ rc: Int32, _ operation: String) throws(StoreError) {
        if rc != SQLITE_OK { throw error(operation) }
    }

    private func error(_ operation: String) -> StoreError {
        .database(
            path: path, operation: "\(operation) \(sql.prefix(60))",
            message: String(cString: sqlite3_errmsg(database)))
    }
}
