import Synchronization

/// Connections to one database file, checked out exclusively per operation.
///
/// Why a pool and no global lock: in WAL mode readers never block each other or the writer, so each MHD thread
/// (and the pusher) reads on its own connection in parallel; writes serialize inside SQLite (BEGIN IMMEDIATE +
/// busy_timeout), which also covers a second process such as `passmint update`. The pool only grows to the
/// peak number of concurrent callers (2 HTTP threads + pusher in `serve`) and keeps at most `maxIdle` open.
final class SQLiteConnectionPool: Sendable {
    let path: String
    private let busyTimeoutMilliseconds: Int32
    private let maxIdle: Int
    private let idle = Mutex<[SQLiteConnection]>([])
    /// Serializes this process's writers on a futex instead of SQLite's busy handler, which sleeps at least 1 ms
    /// per retry and would cap concurrent registrations at a few thousand per second. Other processes still
    /// meet SQLite's lock and busy_timeout.
    private let writer = Mutex<Void>(())

    init(path: String, busyTimeoutMilliseconds: Int32 = 10_000, maxIdle: Int = 16) {
        self.path = path
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.maxIdle = maxIdle
    }

    /// Runs `body` while holding this process's write lock (wrap write transactions in it).
    func withWriter<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        var result: Result<T, any Error>?
        writer.withLock { _ in result = Result { try withConnection(body) } }
        return try result!.get()
    }

    func withConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let connection = try idle.withLock { $0.popLast() }
            ?? SQLiteConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        defer {
            idle.withLock { connections in
                if connections.count < maxIdle { connections.append(connection) }
            }
        }
        return try body(connection)
    }
}
