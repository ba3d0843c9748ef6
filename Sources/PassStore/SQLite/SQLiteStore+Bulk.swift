import Foundation

/// The bulk engine on SQLite: a chunk is one write (one savepoint of a group commit) running cached prepared
/// statements, which cost no round trip in an embedded database; outbox rows come from one
/// `INSERT … SELECT` over the registrations of each changed pass.
extension SQLiteStore: BulkChangeStore {
    package func applyChangesCountingPushes(_ changes: [PassChange], progress: BulkProgress?) throws -> (
        outcome: ChunkOutcome, pushesBySerial: [String: Int]
    ) {
        let nowDate = now()
        return try pool.write { db in try Self.apply(db, changes, progress: progress, now: nowDate) }
    }

    package func applyChanges(
        lockingSerials serials: [String], progress: BulkProgress?, _ decide: ([StoredPass]) throws -> [PassChange]
    ) throws -> (outcome: ChunkOutcome, pushesBySerial: [String: Int]) {
        let nowDate = now()
        // The write transaction is the lock: no other writer (in this process or another) runs until it ends.
        return try pool.write { db in
            let passes = try serials.compactMap { try Self.selectPass(db, serial: $0) }
            return try Self.apply(db, try decide(passes), progress: progress, now: nowDate)
        }
    }

    /// Writes a chunk's changes, their outbox rows and the job's position (call inside a write transaction).
    static func apply(_ db: SQLiteConnection, _ changes: [PassChange], progress: BulkProgress?, now nowDate: Date)
        throws -> (outcome: ChunkOutcome, pushesBySerial: [String: Int])
    {
        let changes = PassChange.coalesced(changes)
        let nowSeconds = seconds(nowDate)
        let nowMilliseconds = milliseconds(nowDate)
        let records = try changes.map { try $0.record.map(encode) }
        var outcome = ChunkOutcome(passesChanged: 0, pushesQueued: 0)
        var pushesBySerial: [String: Int] = [:]
        if !changes.isEmpty {
            var tag = try reserveTags(db, count: changes.count)
            for (change, record) in zip(changes, records) {
                let passType: String? = try db.withStatement(
                    """
                    UPDATE passes SET record = coalesce(?2, record), template = coalesce(?3, template),
                        voided = coalesce(?4, voided), tag = ?5, modified_at = max(?6, modified_at + 1)
                    WHERE serial = ?1 RETURNING pass_type
                    """
                ) { s in
                    try s.bind(1, change.serialNumber)
                    try s.bind(2, record)
                    try s.bind(3, change.templatePath)
                    if let voided = change.voided { try s.bind(4, voided ? 1 : 0) }
                    try s.bind(5, tag)
                    try s.bind(6, nowSeconds)
                    guard try s.step() else { return nil }
                    let passType = s.string(0)
                    while try s.step() {}
                    return passType
                }
                guard let passType else { continue }
                outcome.passesChanged += 1
                let queued = try queuePushes(
                    db, serial: change.serialNumber, passType: passType, tag: tag, nowMilliseconds: nowMilliseconds)
                outcome.pushesQueued += queued
                pushesBySerial[change.serialNumber] = queued
                tag += 1
            }
        }
        if let progress {
            try db.withStatement(
                """
                INSERT INTO bulk_progress (job, position, updated_at) VALUES (?1, ?2, ?3)
                ON CONFLICT (job) DO UPDATE SET position = excluded.position, updated_at = excluded.updated_at
                """
            ) { s in
                try s.bind(1, progress.job)
                try s.bind(2, progress.position)
                try s.bind(3, nowSeconds)
                try s.run()
            }
        }
        return (outcome, pushesBySerial)
    }

    package func bulkPosition(job: String) throws -> Int64? {
        try pool.withConnection { db in
            try db.withStatement("SELECT position FROM bulk_progress WHERE job = ?1") { s in
                try s.bind(1, job)
                return try s.step() ? s.int64(0) : nil
            }
        }
    }

    package func passes(after serial: String?, limit: Int, templatePath: String?) throws -> [StoredPass] {
        try pool.withConnection { db in
            let serials = try db.withStatement(
                """
                SELECT serial FROM passes WHERE serial > ?1 AND (?2 IS NULL OR template = ?2)
                ORDER BY serial LIMIT ?3
                """
            ) { s in
                // "" sorts before every serial, and a plain comparison keeps the primary-key index usable.
                try s.bind(1, serial ?? "")
                try s.bind(2, templatePath)
                try s.bind(3, max(0, limit))
                var serials: [String] = []
                while try s.step() { serials.append(s.string(0)) }
                return serials
            }
            return try Self.reading(db) { try serials.compactMap { try Self.selectPass(db, serial: $0) } }
        }
    }

    package func passes(serials: [String]) throws -> [StoredPass] {
        try pool.withConnection { db in
            try Self.reading(db) { try serials.compactMap { try Self.selectPass(db, serial: $0) } }
        }
    }

    /// Runs `body`'s reads in one read transaction: one snapshot and one file lock for a whole chunk's lookups,
    /// instead of a lock and unlock (two `fcntl` calls) per statement.
    static func reading<T>(_ db: SQLiteConnection, _ body: () throws -> T) throws -> T {
        try db.withStatement("BEGIN") { try $0.run() }
        defer { try? db.withStatement("COMMIT") { try $0.run() } }
        return try body()
    }

    /// Takes `count` consecutive values of the update-tag sequence in one statement; returns the first.
    static func reserveTags(_ db: SQLiteConnection, count: Int) throws -> Int64 {
        try db.withStatement("UPDATE meta SET value = value + ?1 WHERE key = 'tag' RETURNING value") { s in
            try s.bind(1, count)
            guard try s.step() else {
                throw StoreError.database(path: db.path, operation: "next tag", message: "meta row 'tag' missing")
            }
            let last = s.int64(0)
            while try s.step() {}
            return last - Int64(count) + 1
        }
    }
}

extension SQLiteStore: UpdateJobStore {
    package func saveUpdateJob(_ job: UpdateJobStatus) throws {
        let failures = try UpdateJobCoding.encode(job.failures)
        try pool.write { db in
            try db.withStatement(
                """
                INSERT INTO update_jobs (id, status, rows, changed, unchanged, failed, pushes_queued, failures,
                    message, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
                ON CONFLICT (id) DO UPDATE SET status = excluded.status, rows = excluded.rows,
                    changed = excluded.changed, unchanged = excluded.unchanged, failed = excluded.failed,
                    pushes_queued = excluded.pushes_queued, failures = excluded.failures, message = excluded.message,
                    updated_at = excluded.updated_at
                """
            ) { s in
                try s.bind(1, job.id)
                try s.bind(2, job.state.rawValue)
                try s.bind(3, job.rows)
                try s.bind(4, job.changed)
                try s.bind(5, job.unchanged)
                try s.bind(6, job.failed)
                try s.bind(7, job.pushesQueued)
                try s.bind(8, failures)
                try s.bind(9, job.message)
                try s.bind(10, Self.seconds(job.createdAt))
                try s.bind(11, Self.seconds(job.updatedAt))
                try s.run()
            }
        }
    }

    package func updateJob(id: String) throws -> UpdateJobStatus? {
        try pool.withConnection { db in
            try db.withStatement(
                """
                SELECT status, rows, changed, unchanged, failed, pushes_queued, failures, message, created_at,
                    updated_at FROM update_jobs WHERE id = ?1
                """
            ) { s in
                try s.bind(1, id)
                guard try s.step() else { return nil }
                return UpdateJobStatus(
                    id: id, state: UpdateJobStatus.State(rawValue: s.string(0)) ?? .failed, rows: s.int(1),
                    changed: s.int(2), unchanged: s.int(3), failed: s.int(4), pushesQueued: s.int(5),
                    failures: try UpdateJobCoding.decode(s.string(6), id: id), message: s.optionalString(7),
                    createdAt: Date(timeIntervalSince1970: TimeInterval(s.int64(8))),
                    updatedAt: Date(timeIntervalSince1970: TimeInterval(s.int64(9))))
            }
        }
    }
}
