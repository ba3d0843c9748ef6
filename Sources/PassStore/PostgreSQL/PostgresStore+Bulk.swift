import Foundation

/// The bulk engine on PostgreSQL: a chunk is one transaction of two statements whatever its size. The changes
/// travel as arrays (`unnest`), one `UPDATE … FROM` changes every pass and one `INSERT … SELECT` writes the outbox
/// rows of all their registrations, so a chunk of 500 passes costs a few round trips, not one per pass or device.
extension PostgresStore: BulkChangeStore {
    package func applyChangesCountingPushes(_ changes: [PassChange], progress: BulkProgress?) throws -> (
        outcome: ChunkOutcome, pushesBySerial: [String: Int]
    ) {
        let nowDate = now()
        // This instance's read caches at once; other instances' by the notification of the passes trigger.
        defer { self.changes?.passesChanged(changes.map(\.serialNumber)) }
        return try pool.transaction { db in try Self.apply(db, changes, progress: progress, now: nowDate) }
    }

    package func applyChanges(
        lockingSerials serials: [String], progress: BulkProgress?, _ decide: ([StoredPass]) throws -> [PassChange]
    ) throws -> (outcome: ChunkOutcome, pushesBySerial: [String: Int]) {
        let nowDate = now()
        var decided: [String] = []
        defer { self.changes?.passesChanged(decided) }
        return try pool.transaction { db in
            var passes: [StoredPass] = []
            if !serials.isEmpty {
                // Locked in serial order, so two chunks that share passes cannot deadlock.
                let locked = try db.query(
                    """
                    SELECT \(Self.storedPassColumns) FROM passes WHERE serial = ANY($1::text[]) ORDER BY serial FOR UPDATE
                    """, [Self.textArray(serials)])
                passes = try Self.storedPasses(db, locked)
            }
            let changes = try decide(passes)
            decided = changes.map(\.serialNumber)
            return try Self.apply(db, changes, progress: progress, now: nowDate)
        }
    }

    /// Writes a chunk's changes, their outbox rows and the job's position (call inside a transaction).
    static func apply(_ db: PGConnection, _ changes: [PassChange], progress: BulkProgress?, now nowDate: Date)
        throws -> (outcome: ChunkOutcome, pushesBySerial: [String: Int])
    {
        let changes = PassChange.coalesced(changes)
        let nowSeconds = String(RecordCoding.seconds(nowDate))
        let nowMilliseconds = String(RecordCoding.milliseconds(nowDate))
        let records = try changes.map { try $0.record.map(RecordCoding.encode) }
        var outcome = ChunkOutcome(passesChanged: 0, pushesQueued: 0)
        var pushesBySerial: [String: Int] = [:]
        if !changes.isEmpty {
            // DISTINCT ON: one row per device and pass type even when the chunk changes several of the
            // device's passes (the statement's snapshot does not see its own outbox rows).
            let result = try db.query(
                """
                WITH input AS (
                    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::boolean[])
                        AS i(serial, record, template, voided)
                ), changed AS (
                    UPDATE passes p SET record = coalesce(i.record, p.record),
                        template = coalesce(i.template, p.template), voided = coalesce(i.voided, p.voided),
                        tag = nextval('pass_tag'), modified_at = greatest($5, p.modified_at + 1)
                    FROM input i WHERE p.serial = i.serial
                    RETURNING p.serial, p.pass_type, p.tag
                ), queued AS (
                    INSERT INTO push_outbox (push_token, pass_type, serial, tag, attempts, due_at, claimed_until)
                    SELECT DISTINCT ON (d.push_token, r.pass_type) d.push_token, r.pass_type, r.serial, c.tag,
                        0, $6, 0
                    FROM changed c JOIN registrations r ON r.serial = c.serial AND r.pass_type = c.pass_type
                    JOIN devices d ON d.device_library_id = r.device
                    WHERE NOT EXISTS (
                        SELECT 1 FROM push_outbox o WHERE o.push_token = d.push_token
                        AND o.pass_type = r.pass_type AND o.attempts = 0 AND o.claimed_until <= $6)
                    ORDER BY d.push_token, r.pass_type, c.tag
                    RETURNING serial
                )
                SELECT c.serial, count(q.serial) FROM changed c LEFT JOIN queued q ON q.serial = c.serial
                GROUP BY c.serial
                """,
                [
                    textArray(changes.map(\.serialNumber)), textArray(records),
                    textArray(changes.map(\.templatePath)),
                    textArray(changes.map { $0.voided.map { $0 ? "t" : "f" } }), nowSeconds,
                    nowMilliseconds,
                ])
            for row in 0..<result.rowCount {
                let queued = result.int(row, 1)
                pushesBySerial[result.string(row, 0)] = queued
                outcome.pushesQueued += queued
            }
            outcome.passesChanged = result.rowCount
        }
        if let progress {
            try db.query(
                """
                INSERT INTO bulk_progress (job, position, updated_at) VALUES ($1, $2, $3)
                ON CONFLICT (job) DO UPDATE SET position = excluded.position, updated_at = excluded.updated_at
                """, [progress.job, String(progress.position), nowSeconds])
        }
        return (outcome, pushesBySerial)
    }

    package func bulkPosition(job: String) throws -> Int64? {
        try pool.withConnection { db in
            let result = try db.query("SELECT position FROM bulk_progress WHERE job = $1", [job])
            return result.rowCount > 0 ? result.int64(0, 0) : nil
        }
    }

    package func passes(after serial: String?, limit: Int, templatePath: String?) throws -> [StoredPass] {
        try pool.withConnection { db in
            // "" sorts before every serial, and a plain comparison keeps the primary-key index usable.
            let result = try db.query(
                """
                SELECT \(Self.storedPassColumns) FROM passes WHERE serial > $1 AND ($2::text IS NULL OR template = $2)
                ORDER BY serial LIMIT $3
                """, [serial ?? "", templatePath, String(max(0, limit))])
            return try Self.storedPasses(db, result)
        }
    }

    package func passes(serials: [String]) throws -> [StoredPass] {
        guard !serials.isEmpty else { return [] }
        return try pool.withConnection { db in
            let result = try db.query(
                "SELECT \(Self.storedPassColumns) FROM passes WHERE serial = ANY($1::text[])", [Self.textArray(serials)]
            )
            return try Self.storedPasses(db, result)
        }
    }

    /// The passes of `result` with their images, read in one more query.
    static func storedPasses(_ db: PGConnection, _ result: PGResult) throws -> [StoredPass] {
        var passes = try (0..<result.rowCount).map { try storedPass(result, row: $0) }
        guard !passes.isEmpty else { return passes }
        let images = try db.query(
            "SELECT serial, path, bytes FROM pass_images WHERE serial = ANY($1::text[])",
            [textArray(passes.map(\.serialNumber))])
        guard images.rowCount > 0 else { return passes }
        let index = Dictionary(uniqueKeysWithValues: passes.enumerated().map { ($1.serialNumber, $0) })
        for row in 0..<images.rowCount {
            guard let at = index[images.string(row, 0)] else { continue }
            passes[at].images[images.string(row, 1)] = images.bytes(row, 2)
        }
        return passes
    }

    /// PostgreSQL's text form of a one-dimensional array: every element quoted (backslash before `"` and `\`),
    /// nil as an unquoted NULL.
    static func textArray(_ values: [String?]) -> String {
        // Built as UTF-8 bytes: `"` and `\` are single bytes that never occur inside a multi-byte character.
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        var text: [UInt8] = [UInt8(ascii: "{")]
        text.reserveCapacity(values.reduce(2) { $0 + ($1?.utf8.count ?? 4) + 3 })
        for (i, value) in values.enumerated() {
            if i > 0 { text.append(UInt8(ascii: ",")) }
            guard let value else {
                text += "NULL".utf8
                continue
            }
            text.append(quote)
            for byte in value.utf8 {
                if byte == quote || byte == backslash { text.append(backslash) }
                text.append(byte)
            }
            text.append(quote)
        }
        text.append(UInt8(ascii: "}"))
        return String(decoding: text, as: UTF8.self)
    }

    static func textArray(_ values: [String]) -> String { textArray(values.map { Optional($0) }) }
}

extension PostgresStore: UpdateJobStore {
    package func saveUpdateJob(_ job: UpdateJobStatus) throws {
        let failures = try UpdateJobCoding.encode(job.failures)
        try pool.withConnection { db in
            try db.query(
                """
                INSERT INTO update_jobs (id, status, rows, changed, unchanged, failed, pushes_queued, failures,
                    message, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                ON CONFLICT (id) DO UPDATE SET status = excluded.status, rows = excluded.rows,
                    changed = excluded.changed, unchanged = excluded.unchanged, failed = excluded.failed,
                    pushes_queued = excluded.pushes_queued, failures = excluded.failures, message = excluded.message,
                    updated_at = excluded.updated_at
                """,
                [
                    job.id, job.state.rawValue, String(job.rows), String(job.changed), String(job.unchanged),
                    String(job.failed), String(job.pushesQueued), failures, job.message,
                    String(RecordCoding.seconds(job.createdAt)), String(RecordCoding.seconds(job.updatedAt)),
                ])
        }
    }

    package func updateJob(id: String) throws -> UpdateJobStatus? {
        try pool.withConnection { db in
            let r = try db.query(
                """
                SELECT status, rows, changed, unchanged, failed, pushes_queued, failures, message, created_at,
                    updated_at FROM update_jobs WHERE id = $1
                """, [id])
            guard r.rowCount > 0 else { return nil }
            return UpdateJobStatus(
                id: id, state: UpdateJobStatus.State(rawValue: r.string(0, 0)) ?? .failed, rows: r.int(0, 1),
                changed: r.int(0, 2), unchanged: r.int(0, 3), failed: r.int(0, 4), pushesQueued: r.int(0, 5),
                failures: try UpdateJobCoding.decode(r.string(0, 6), id: id), message: r.optionalString(0, 7),
                createdAt: Date(timeIntervalSince1970: TimeInterval(r.int64(0, 8))),
                updatedAt: Date(timeIntervalSince1970: TimeInterval(r.int64(0, 9))))
        }
    }
}
