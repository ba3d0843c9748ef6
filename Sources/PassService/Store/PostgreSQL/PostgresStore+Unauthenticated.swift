import Foundation

/// Wallet's log lines and rewards sign-ups: what callers without credentials make the store keep, capped in
/// bytes (counted by the triggers of migration 10) and deleted by age. The counter row of a kind is locked
/// (`FOR UPDATE`) while a write checks it, so instances sharing the database cannot pass the cap together.
extension PostgresStore {
    /// The SQL for the bytes one log row counts (see `UnauthenticatedKind.rowOverheadBytes`).
    static func logBytes(_ message: String) -> String {
        "(octet_length(\(message)) + \(UnauthenticatedKind.rowOverheadBytes))"
    }

    /// The SQL for the bytes one sign-up row counts; `row` is "NEW.", "OLD." or "".
    static func personalizationBytes(_ row: String) -> String {
        "(octet_length(\(row)token) + octet_length(\(row)info) + coalesce(octet_length(\(row)signature), 0)"
            + " + \(UnauthenticatedKind.rowOverheadBytes))"
    }

    public func appendLogs(_ lines: [String], maxStoredBytes: Int) throws -> Bool {
        guard !lines.isEmpty else { return true }
        let nowSeconds = String(RecordCoding.seconds(now()))
        let adding = logUsage(lines)
        return try pool.transaction { db in
            guard try Self.lockedUsage(db, .log).bytes + adding <= maxStoredBytes else { return false }
            for line in lines {
                try db.query("INSERT INTO logs (at, message) VALUES ($1, $2)", [nowSeconds, line])
            }
            return true
        }
    }

    /// The newest stored Wallet log lines, oldest first.
    public func recentLogs(limit: Int) throws -> [String] {
        try pool.withConnection { db in
            let result = try db.query("SELECT message FROM logs ORDER BY id DESC LIMIT $1", [String(limit)])
            return (0..<result.rowCount).map { result.string($0, 0) }.reversed()
        }
    }

    public func enrollment(passType: String, serial: String) throws -> PersonalizationEnrollment? {
        try pool.withConnection { db in try Self.selectEnrollment(db, passType: passType, serial: serial) }
    }

    public func storeEnrollment(_ enrollment: PersonalizationEnrollment, maxStoredBytes: Int) throws
        -> EnrollmentOutcome
    {
        let info = try RecordCoding.encode(enrollment.info)
        let nowDate = now()
        let nowSeconds = String(RecordCoding.seconds(nowDate))
        let adding = PersonalizationEnrollment.storedBytes(
            token: enrollment.token, encodedInfo: info, signature: enrollment.signature)
        let serial = enrollment.serialNumber, passType = enrollment.passTypeIdentifier
        let outcome = try pool.transaction { db -> EnrollmentOutcome in
            // The pass row is locked first: two sign-ups of one pass at once are decided one after the other.
            let pass = try db.query(
                "SELECT personalized_at IS NOT NULL FROM passes WHERE serial = $1 AND pass_type = $2 FOR UPDATE",
                [serial, passType])
            guard pass.rowCount > 0 else { return .noPass }
            if pass.bool(0, 0) {
                return .alreadyPersonalized(try Self.selectEnrollment(db, passType: passType, serial: serial))
            }
            guard try Self.lockedUsage(db, .personalization).bytes + adding <= maxStoredBytes else { return .overCap }
            // A sign-up kept from an earlier issue of this serial stays as the record of that sign-up; it no
            // longer answers for the pass.
            try db.query(
                "UPDATE personalizations SET signature = NULL WHERE serial = $1 AND signature IS NOT NULL", [serial])
            try db.query(
                """
                INSERT INTO personalizations (serial, pass_type, token, info, at, signature)
                VALUES ($1, $2, $3, $4, $5, $6)
                """,
                [serial, passType, enrollment.token, info, nowSeconds, Self.hexBytea(enrollment.signature)])
            let updated = try db.query(
                """
                WITH pass AS (
                    UPDATE passes SET personalized_at = $2, tag = nextval('pass_tag'),
                        modified_at = greatest($2, modified_at + 1)
                    WHERE serial = $1 RETURNING serial, pass_type, tag
                ), queued AS (
                    INSERT INTO push_outbox (push_token, pass_type, serial, tag, attempts, due_at, claimed_until)
                    SELECT d.push_token, r.pass_type, r.serial, pass.tag, 0, $3, 0
                    FROM pass JOIN registrations r ON r.serial = pass.serial AND r.pass_type = pass.pass_type
                    JOIN devices d ON d.device_library_id = r.device
                    WHERE NOT EXISTS (
                        SELECT 1 FROM push_outbox o WHERE o.push_token = d.push_token AND o.pass_type = r.pass_type
                        AND o.attempts = 0 AND o.claimed_until <= $3)
                    RETURNING 1
                )
                SELECT pass.tag, (SELECT count(*) FROM queued) FROM pass
                """, [serial, nowSeconds, String(RecordCoding.milliseconds(nowDate))])
            return .stored(tag: updated.int64(0, 0))
        }
        if case .stored = outcome { changes?.passesChanged([serial]) }
        return outcome
    }

    /// The personalization info stored for a serial, newest first.
    public func personalizations(serial: String) throws -> [[String: String]] {
        try pool.withConnection { db in
            let result = try db.query("SELECT info FROM personalizations WHERE serial = $1 ORDER BY id DESC", [serial])
            return try (0..<result.rowCount).map { try RecordCoding.decode(result.string($0, 0), serial: serial) }
        }
    }

    public func unauthenticatedUsage() throws -> [UnauthenticatedKind: UnauthenticatedUsage] {
        try pool.withConnection { db in
            let result = try db.query("SELECT kind, bytes, rows FROM unauthenticated_usage")
            var usage: [UnauthenticatedKind: UnauthenticatedUsage] = [:]
            for kind in UnauthenticatedKind.allCases { usage[kind] = UnauthenticatedUsage(bytes: 0, rows: 0) }
            for row in 0..<result.rowCount {
                guard let kind = UnauthenticatedKind(rawValue: result.string(row, 0)) else { continue }
                usage[kind] = UnauthenticatedUsage(bytes: result.int(row, 1), rows: result.int(row, 2))
            }
            return usage
        }
    }

    public func deleteUnauthenticated(storedBefore cutoff: Date) throws -> [UnauthenticatedKind: Int] {
        let seconds = String(RecordCoding.seconds(cutoff))
        return try pool.transaction { db in
            var deleted: [UnauthenticatedKind: Int] = [:]
            for (kind, table) in [(UnauthenticatedKind.log, "logs"), (.personalization, "personalizations")] {
                deleted[kind] = try db.query("DELETE FROM \(table) WHERE at < $1", [seconds]).affectedRows
            }
            return deleted
        }
    }

    /// The usage of `kind`, its counter row locked until the transaction ends.
    private static func lockedUsage(_ db: PGConnection, _ kind: UnauthenticatedKind) throws -> UnauthenticatedUsage {
        let result = try db.query(
            "SELECT bytes, rows FROM unauthenticated_usage WHERE kind = $1 FOR UPDATE", [kind.rawValue])
        guard result.rowCount > 0 else { return UnauthenticatedUsage(bytes: 0, rows: 0) }
        return UnauthenticatedUsage(bytes: result.int(0, 0), rows: result.int(0, 1))
    }

    private static func selectEnrollment(_ db: PGConnection, passType: String, serial: String) throws
        -> PersonalizationEnrollment?
    {
        let result = try db.query(
            """
            SELECT e.token, e.info, e.signature FROM personalizations e JOIN passes p ON p.serial = e.serial
            WHERE e.serial = $1 AND e.pass_type = $2 AND e.signature IS NOT NULL AND p.personalized_at IS NOT NULL
            """, [serial, passType])
        guard result.rowCount > 0 else { return nil }
        return PersonalizationEnrollment(
            passTypeIdentifier: passType, serialNumber: serial, token: result.string(0, 0),
            info: try RecordCoding.decode(result.string(0, 1), serial: serial), signature: result.bytes(0, 2))
    }
}
