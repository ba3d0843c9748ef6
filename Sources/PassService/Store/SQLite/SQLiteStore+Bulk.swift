import Foundation

/// The bulk engine on SQLite: a chunk is one write (one savepoint of a group commit) running cached prepared
/// statements, which cost no round trip in an embedded database; outbox rows come from one
/// `INSERT … SELECT` over the registrations of each changed pass.
extension SQLiteStore: BulkChangeStore {
    public func applyChanges(_ changes: [PassChange], progress: BulkProgress?) throws -> ChunkOutcome {
        let changes = PassChange.coalesced(changes)
        let nowDate = now()
        let nowSeconds = Self.seconds(nowDate)
        let nowMilliseconds = Self.milliseconds(nowDate)
        let records = try changes.map { try $0.record.map(Self.encode) }
        return try pool.write { db in
            var outcome = ChunkOutcome(passesChanged: 0, pushesQueued: 0)
            if !changes.isEmpty {
                var tag = try Self.reserveTags(db, count: changes.count)
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
                    outcome.pushesQueued += try Self.queuePushes(
                        db, serial: change.serialNumber, passType: passType, tag: tag,
                        nowMilliseconds: nowMilliseconds)
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
            return outcome
        }
    }

    public func bulkPosition(job: String) throws -> Int64? {
        try pool.withConnection { db in
            try db.withStatement("SELECT position FROM bulk_progress WHERE job = ?1") { s in
                try s.bind(1, job)
                return try s.step() ? s.int64(0) : nil
            }
        }
    }

    public func passes(after serial: String?, limit: Int, templatePath: String?) throws -> [StoredPass] {
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
            return try serials.compactMap { try Self.selectPass(db, serial: $0) }
        }
    }

    public func passes(serials: [String]) throws -> [StoredPass] {
        try pool.withConnection { db in try serials.compactMap { try Self.selectPass(db, serial: $0) } }
    }

    /// Takes `count` consecutive values of the update-tag sequence in one statement; returns the first.
    static func reserveTags(_ db: SQLiteConnection, count: Int) throws -> Int64 {
        try db.withStatement("UPDATE meta SET value = value + ?1 WHERE key = 'tag' RETURNING value") { s in
            try s.bind(1, count)
            guard try s.step() else {
                throw ServiceError.database(path: db.path, operation: "next tag", message: "meta row 'tag' missing")
            }
            let last = s.int64(0)
            while try s.step() {}
            return last - Int64(count) + 1
        }
    }
}
