import Foundation
import Synchronization
import Testing
@testable import PassStore
import PassMintTestSupport

@Suite("SQLite group commit and background checkpoints")
struct SQLiteGroupCommitTests {
    private func pool(_ directory: TempDir, background: Bool = false) throws -> SQLiteConnectionPool {
        let pool = SQLiteConnectionPool(path: directory.path("group.sqlite"), backgroundCheckpoints: background)
        try pool.withWriter { try $0.execute("CREATE TABLE IF NOT EXISTS t (k TEXT PRIMARY KEY, v INTEGER)") }
        return pool
    }

    private func insert(_ db: SQLiteConnection, _ key: String, _ value: Int) throws {
        try db.withStatement("INSERT INTO t (k, v) VALUES (?1, ?2)") { s in
            try s.bind(1, key)
            try s.bind(2, value)
            try s.run()
        }
    }

    private func count(_ pool: SQLiteConnectionPool, where condition: String = "1") throws -> Int {
        try pool.withConnection { db in
            try db.withStatement("SELECT count(*) FROM t WHERE \(condition)") { s in
                _ = try s.step()
                return s.int(0)
            }
        }
    }

    /// The keys of `t` that `db` sees (its own uncommitted rows included).
    private func keys(_ db: SQLiteConnection) throws -> Set<String> {
        try db.withStatement("SELECT k FROM t") { s in
            var keys: Set<String> = []
            while try s.step() { keys.insert(s.string(0)) }
            return keys
        }
    }

    @Test("writes from 32 threads at once are all committed and each gets its own result")
    func manyWriters() throws {
        let directory = try TempDir()
        let pool = try pool(directory)
        let results = Mutex<[Int: Int]>([:])
        let group = DispatchGroup()
        for thread in 0..<32 {
            group.enter()
            Thread {
                for i in 0..<25 {
                    let n = thread * 100 + i
                    let changes = try? pool.write { db in
                        try insert(db, "k\(n)", n)
                        return db.changes * n
                    }
                    results.withLock { $0[n] = changes }
                }
                group.leave()
            }.start()
        }
        group.wait()
        let all = results.withLock { $0 }
        #expect(all.count == 800)
        #expect(all.allSatisfy { $0.key == $0.value })
        #expect(try count(pool) == 800)
    }

    /// One round: a leader's write is held open while w0, w1, then w2 (which fails), then w3, w4 queue behind
    /// it. Each write records the rows its transaction holds uncommitted when it starts: those it sees on the
    /// write connection that a reader does not see yet, that is, the writes before it in its group.
    private func refusedWriteRound(_ pool: SQLiteConnectionPool) throws -> (
        outcomes: [String: Bool], uncommittedBefore: [String: Set<String>]
    ) {
        struct Refused: Error {}
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let queued = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        done.enter()
        Thread {
            _ = try? pool.write { db in
                try insert(db, "leader", 0)
                holding.signal()
                release.wait()
            }
            done.leave()
        }.start()
        holding.wait()
        let outcomes = Mutex<[String: Bool]>([:])
        let uncommitted = Mutex<[String: Set<String>]>([:])
        for order in [[0, 1], [2], [3, 4]] {
            for i in order {
                done.enter()
                Thread {
                    queued.signal()
                    let ok: Bool
                    do {
                        try pool.write { db in
                            let seen = try keys(db).subtracting(try pool.withConnection { try keys($0) })
                            uncommitted.withLock { $0["w\(i)"] = seen }
                            try insert(db, "w\(i)", i)
                            if i == 2 { throw Refused() }
                        }
                        ok = true
                    } catch {
                        ok = false
                    }
                    outcomes.withLock { $0["w\(i)"] = ok }
                    done.leave()
                }.start()
            }
            for _ in order { queued.wait() }
        }
        release.signal()
        done.wait()
        return (outcomes.withLock { $0 }, uncommitted.withLock { $0 })
    }

    @Test("a write that fails inside a group rolls back only its own changes; the others of the group commit")
    func failureIsolated() throws {
        // The writes queue behind the held leader within microseconds of starting, but nothing outside the pool
        // can see a queue: rounds repeat until the refused write is seen sharing its transaction with earlier
        // writes (they form one group), and every round must keep the refused write's rollback to itself.
        var grouped: Set<String> = []
        for _ in 0..<20 where grouped.isEmpty {
            let directory = try TempDir()
            let pool = try pool(directory)
            let round = try refusedWriteRound(pool)
            #expect(round.outcomes == ["w0": true, "w1": true, "w2": false, "w3": true, "w4": true])
            #expect(try count(pool) == 5)
            #expect(try count(pool, where: "k = 'w2'") == 0)
            grouped = round.uncommittedBefore["w2"] ?? []
            // The writes w2 shared its transaction with were committed by that same transaction.
            for key in grouped { #expect(try count(pool, where: "k = '\(key)'") == 1, "\(key)") }
        }
        #expect(!grouped.isEmpty, "in 20 rounds the refused write never shared a transaction: no group formed")
    }

    @Test("a write alone in its transaction runs without a savepoint: when it fails, none of its rows stay")
    func loneWriteFailure() throws {
        let directory = try TempDir()
        let pool = try pool(directory)
        #expect(throws: StoreError.self) {
            try pool.write { db in
                for i in 0..<100 { try insert(db, "lone-\(i)", i) }
                try insert(db, "lone-0", -1)  // the primary key refuses it: the whole write fails
            }
        }
        #expect(try count(pool) == 0)
        // The connection is usable again: its transaction was rolled back, not left open.
        try pool.write { db in try insert(db, "after", 1) }
        #expect(try count(pool) == 1)
    }

    @Test("a statement journal of a few hundred KB stays in memory: no temporary file is open for it")
    func statementJournalsInMemory() throws {
        let directory = try TempDir()
        let pool = try pool(directory)
        // A statement that fires a trigger keeps a statement journal: the original of every page it changes.
        try pool.withWriter { db in
            try db.execute(
                """
                CREATE TABLE u (k INTEGER PRIMARY KEY, v TEXT NOT NULL);
                CREATE TABLE u_log (k INTEGER NOT NULL);
                CREATE TRIGGER u_changed AFTER UPDATE ON u BEGIN INSERT INTO u_log (k) VALUES (NEW.k); END;
                """)
        }
        let padding = String(repeating: "x", count: 300)
        try pool.write { db in
            for i in 0..<1_000 {
                try db.withStatement("INSERT INTO u (k, v) VALUES (?1, ?2)") { s in
                    try s.bind(1, i)
                    try s.bind(2, padding)
                    try s.run()
                }
            }
        }
        // About 80 pages (320 KB) of journal: beyond SQLite's default of 64 KiB in memory, within the store's.
        let openTemporaryFiles = try pool.write { db in
            try db.withStatement("UPDATE u SET v = ?1") { s in
                try s.bind(1, padding.uppercased())
                try s.run()
            }
            // A journal moved to a file stays open (unlinked) until the transaction ends: look before it does.
            return Self.openSQLiteTemporaryFiles()
        }
        #expect(openTemporaryFiles.isEmpty, "\(openTemporaryFiles)")
        let changed = try pool.withConnection { db in
            try db.withStatement("SELECT count(*) FROM u_log") { s in
                _ = try s.step()
                return s.int(0)
            }
        }
        #expect(changed == 1_000)
    }

    /// The files this process holds open that SQLite created as temporary files (`etilqs_` names).
    private static func openSQLiteTemporaryFiles() -> [String] {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") }
            .filter { $0.contains("etilqs_") }
    }

    @Test("with background checkpoints the log is copied into the database file while the store stays open")
    func backgroundCheckpoint() throws {
        let directory = try TempDir()
        let pool = try pool(directory, background: true)
        let file = directory.path("group.sqlite")
        let before = try fileSize(file)
        for chunk in 0..<20 {
            try pool.write { db in
                for i in 0..<200 { try insert(db, String(repeating: "x", count: 200) + "\(chunk)-\(i)", i) }
            }
        }
        #expect(try count(pool) == 4000)
        // 4,000 rows of ~200 bytes need ~200 pages; the writer's own automatic checkpoint (1,000 pages) would
        // not have run yet, so a grown file shows the checkpoint thread did it.
        let grown = try waitUntil(timeout: 20) { try fileSize(file) > before + 500_000 }
        #expect(grown, "the database file is still \((try? fileSize(file)) ?? -1) bytes")
    }

    @Test("under writes that never pause, with a reader always open, the log is restarted instead of growing")
    func logBoundedUnderSustainedWrites() throws {
        // 64 frames (about 256 KB) past which a checkpoint restarts the log, against no restarts at all.
        let restarting = try largestLog(restartFrames: 64)
        let growing = try largestLog(restartFrames: .max)
        #expect(growing > 32 << 20, "without restarts the log should have grown: \(growing) bytes")
        #expect(restarting * 3 < growing, "with restarts the log reached \(restarting) bytes, without \(growing)")
    }

    /// The largest the log file gets in 3 s of two writers and a reader that never pause, with background
    /// checkpoints restarting the log past `restartFrames`.
    private func largestLog(restartFrames: Int64) throws -> Int {
        let directory = try TempDir()
        let pool = SQLiteConnectionPool(
            path: directory.path("group.sqlite"), backgroundCheckpoints: true, restartFrames: restartFrames)
        try pool.withWriter { try $0.execute("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)") }
        let stop = Atomic<Bool>(false)
        let group = DispatchGroup()
        for writer in 0..<2 {
            group.enter()
            Thread {
                var n = 0
                while !stop.load(ordering: .relaxed) {
                    _ = try? pool.write { db in
                        for i in 0..<4 { try insert(db, "\(writer)-\(n)-\(i)" + String(repeating: "v", count: 800), i) }
                    }
                    n += 1
                }
                group.leave()
            }.start()
        }
        group.enter()
        Thread {
            while !stop.load(ordering: .relaxed) { _ = try? count(pool, where: "v = 3") }
            group.leave()
        }.start()
        let clock = ContinuousClock()
        let start = clock.now
        var largest = 0
        while clock.now - start < .seconds(3) {
            largest = max(largest, (try? fileSize(directory.path("group.sqlite-wal"))) ?? 0)
            Thread.sleep(forTimeInterval: 0.01)
        }
        stop.store(true, ordering: .relaxed)
        group.wait()
        return largest
    }

    private func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }
}
