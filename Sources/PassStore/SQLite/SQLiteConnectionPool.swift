import Foundation
import Synchronization
import PassConcurrency

/// Connections to one database file, checked out exclusively per operation.
///
/// Why a pool and no global lock: in WAL mode readers never block each other or the writer, so each MHD thread
/// (and the pusher) reads on its own connection in parallel. Writes go through one write connection and are
/// group-committed (`write`); a second process such as `passmint update` still meets SQLite's lock and
/// busy_timeout. The pool only grows to the peak number of concurrent readers and keeps at most `maxIdle` open.
final class SQLiteConnectionPool: Sendable {
    let path: String
    private let busyTimeoutMilliseconds: Int32
    private let maxIdle: Int
    private let idle = SleepingLock<[SQLiteConnection]>([])
    /// Serializes this process's writers on a lock instead of SQLite's busy handler, which sleeps at least 1 ms
    /// per retry and would cap concurrent registrations at a few thousand per second.
    private let writer: WriterSlot
    private let group = GroupCommit<any GroupedWrite>()
    private let checkpointer: SQLiteCheckpointer?

    /// - Parameters:
    ///   - backgroundCheckpoints: checkpoint on a thread of its own instead of inside the COMMIT that crosses
    ///     SQLite's threshold (for a long-running process with many writes: `serve`).
    ///   - restartFrames: the log size, in frames, past which a background checkpoint restarts the log.
    init(
        path: String, busyTimeoutMilliseconds: Int32 = 10_000, maxIdle: Int = 128, backgroundCheckpoints: Bool = false,
        restartFrames: Int64 = SQLiteCheckpointer.restartFrames
    ) {
        self.path = path
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.maxIdle = maxIdle
        let writer = WriterSlot(automaticCheckpoints: !backgroundCheckpoints)
        self.writer = writer
        self.checkpointer =
            backgroundCheckpoints
            ? SQLiteCheckpointer(
                path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, restartFrames: restartFrames
            ) {
                // On the write connection, under its lock: this process's writers wait for the restart instead of
                // starving it (a checkpoint that waits for them meets a new transaction at every retry).
                writer.lock.lock()
                defer { writer.lock.unlock() }
                guard let db = try? writer.connection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
                else { return }
                _ = SQLiteCheckpointer.checkpoint(db, mode: .restart)
            } : nil
    }

    /// Runs `body` as one atomic write: inside a savepoint of a transaction that may also carry the writes other
    /// threads made at the same moment (group commit: one `COMMIT`, one WAL append and one lock round for all of
    /// them). Returns after that transaction committed; if `body` throws, only its own changes are rolled back;
    /// if the commit fails, every write of the group gets the error.
    func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try withoutActuallyEscaping(body) { body in
            let pending = PendingWrite<T>(body)
            group.submit(pending) { batch in commit(batch) }
            return try pending.result!.get()
        }
    }

    /// Runs `body` alone on the write connection, outside any group (the schema script brings its own BEGIN).
    func withWriter<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        writer.lock.lock()
        defer { writer.lock.unlock() }
        return try body(writer.connection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds))
    }

    func withConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let connection =
            try idle.withLock { $0.popLast() }
            ?? SQLiteConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        defer {
            idle.withLock { connections in
                if connections.count < maxIdle { connections.append(connection) }
            }
        }
        return try body(connection)
    }

    /// One transaction for `batch`, each write in its own savepoint (a write alone in it needs none).
    private func commit(_ batch: [any GroupedWrite]) {
        do {
            try withWriter { db in
                try db.withStatement("BEGIN IMMEDIATE") { try $0.run() }
                do {
                    if batch.count == 1, !batch[0].run(on: db, alone: true) {
                        try db.withStatement("ROLLBACK") { try $0.run() }
                        return
                    }
                    if batch.count > 1 { for write in batch { write.run(on: db, alone: false) } }
                    try db.withStatement("COMMIT") { try $0.run() }
                } catch {
                    try? db.withStatement("ROLLBACK") { try $0.run() }
                    throw error
                }
            }
        } catch {
            for write in batch { write.fail(error) }
        }
    }
}

/// The process's one write connection and the lock that guards it. A pthread mutex (NSLock), not
/// `Synchronization.Mutex`: the latter's priority-inheritance futex spins in the kernel while the holder commits,
/// burning the CPU the holder and the HTTP threads need.
private final class WriterSlot: @unchecked Sendable {  // `open` is only touched while `lock` is held
    let lock = NSLock()
    private let automaticCheckpoints: Bool
    private var open: SQLiteConnection?

    init(automaticCheckpoints: Bool) { self.automaticCheckpoints = automaticCheckpoints }

    func connection(path: String, busyTimeoutMilliseconds: Int32) throws -> SQLiteConnection {
        if let open { return open }
        let connection = try SQLiteConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        if !automaticCheckpoints {
            try connection.execute("PRAGMA wal_autocheckpoint=0")
            // Keeps the log file from staying at its peak size once a checkpoint has let it restart.
            try connection.execute("PRAGMA journal_size_limit=67108864")
        }
        open = connection
        return connection
    }
}
