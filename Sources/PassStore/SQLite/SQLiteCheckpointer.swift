import Foundation

/// Copies the write-ahead log back into the database file on its own thread and connection, every `interval`,
/// so that no write waits for a checkpoint and its fsync (SQLite's automatic checkpoint runs inside the COMMIT
/// that crosses 1,000 WAL pages, stalling every write queued behind it). A PASSIVE checkpoint never blocks
/// readers or writers; the next write restarts the log once it has been copied completely. Under writes that
/// never pause that moment never comes (each checkpoint ends behind the newest frame), and the log would grow
/// without end, every write extending the file: past `restartFrames` the owner's `restart` runs a RESTART
/// checkpoint with its writers held off, so the next write starts the log over.
final class SQLiteCheckpointer: Sendable {
    private let stop = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)
    /// Frames in the log (about 4 KB each) past which a checkpoint also restarts it, by default.
    static let restartFrames: Int64 = 8192

    /// Starts the thread. Checkpoint failures (e.g. the file is busy in another process) are retried next round.
    init(
        path: String, busyTimeoutMilliseconds: Int32, interval: DispatchTimeInterval = .milliseconds(200),
        restartFrames: Int64 = SQLiteCheckpointer.restartFrames, restart: @escaping @Sendable () -> Void
    ) {
        let stop = self.stop, stopped = self.stopped
        let thread = Thread {
            defer { stopped.signal() }
            // Opened in the loop, and again after a failure: while a new file is being created and switched to
            // WAL by the first writer, opening it here can fail with SQLITE_BUSY.
            var db: SQLiteConnection?
            while stop.wait(timeout: .now() + interval) == .timedOut {
                if db == nil {
                    db = try? SQLiteConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
                }
                if let db, Self.checkpoint(db, mode: .passive) > restartFrames { restart() }
            }
            if let db { _ = Self.checkpoint(db, mode: .passive) }
        }
        thread.name = "sqlite-checkpoint"
        thread.start()
    }

    /// The checkpoints this store runs (SQLite's `wal_checkpoint` modes).
    enum Mode: String {
        /// Copies what it can without waiting for anyone.
        case passive = "PASSIVE"
        /// Copies everything, then waits until no reader uses the log, so the next write starts it over.
        case restart = "RESTART"
    }

    /// Runs one checkpoint; the frames the log held (0 when it failed, to be retried next round).
    static func checkpoint(_ db: SQLiteConnection, mode: Mode) -> Int64 {
        // The pragma answers one row: busy, frames in the log, frames copied.
        (try? db.withStatement("PRAGMA wal_checkpoint(\(mode.rawValue))") { s in try s.step() ? s.int64(1) : 0 }) ?? 0
    }

    /// Stops the thread after one last checkpoint and waits for it.
    deinit {
        stop.signal()
        stopped.wait()
    }
}
