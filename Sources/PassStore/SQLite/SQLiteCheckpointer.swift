import Foundation

/// Copies the write-ahead log back into the database file on its own thread and connection, every `interval`,
/// so that no write waits for a checkpoint and its fsync (SQLite's automatic checkpoint runs inside the COMMIT
/// that crosses 1,000 WAL pages, stalling every write queued behind it). A PASSIVE checkpoint never blocks
/// readers or writers; the next write restarts the log once it has been copied completely.
final class SQLiteCheckpointer: Sendable {
    private let stop = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)

    /// Starts the thread. Checkpoint failures (e.g. the file is busy in another process) are retried next round.
    init(path: String, busyTimeoutMilliseconds: Int32, interval: DispatchTimeInterval = .milliseconds(200)) {
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
                try? db?.execute("PRAGMA wal_checkpoint(PASSIVE)")
            }
            try? db?.execute("PRAGMA wal_checkpoint(PASSIVE)")
        }
        thread.name = "sqlite-checkpoint"
        thread.start()
    }

    /// Stops the thread after one last checkpoint and waits for it.
    deinit {
        stop.signal()
        stopped.wait()
    }
}
