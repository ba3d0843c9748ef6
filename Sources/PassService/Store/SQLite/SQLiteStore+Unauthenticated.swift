import Foundation

/// Wallet's log lines and rewards sign-ups: what callers without credentials make the store keep, capped in
/// bytes (counted by the triggers of migration 10) and deleted by age.
extension SQLiteStore {
    /// The SQL for the bytes one log row counts (see `UnauthenticatedKind.rowOverheadBytes`).
    static func logBytes(_ message: String) -> String {
        "(length(CAST(\(message) AS BLOB)) + \(UnauthenticatedKind.rowOverheadBytes))"
    }

    /// The SQL for the bytes one sign-up row counts; `row` is "NEW.", "OLD." or "".
    static func personalizationBytes(_ row: String) -> String {
        "(length(CAST(\(row)token AS BLOB)) + length(CAST(\(row)info AS BLOB)) + coalesce(length(\(row)signature), 0)"
            + " + \(UnauthenticatedKind.rowOverheadBytes))"
    }

    public func appendLogs(_ lines: [String], maxStoredBytes: Int) throws -> Bool {
        guard !lines.isEmpty else { return true }
        let nowSeconds = Self.seconds(now())
        let adding = logUsage(lines)
        return try pool.write { db in
            guard try Self.usage(db, .log).bytes + adding <= maxStoredBytes else { return false }
            for line in lines {
                try db.withStatement("INSERT INTO logs (at, message) VALUES (?1, ?2)") { s in
                    try s.bind(1, nowSeconds)
                    try s.bind(2, line)
                    try s.run()
                }
            }
            return true
        }
    }

    /// The newest stored Wallet log lines, oldest first.
    public func recentLogs(limit: Int) throws -> [String] {
        try pool.withConnection { db in
            try db.withStatement("SELECT message FROM logs ORDER BY id DESC LIMIT ?1") { s in
                try s.bind(1, limit)
                var lines: [String] = []
                while try s.step() { lines.append(s.string(0)) }
                return lines.reversed()
            }
        }
    }

    public func enrollment(passType: String, serial: String) throws -> PersonalizationEnrollment? {
        try pool.withConnection { db in try Self.selectEnrollment(db, passType: passType, serial: serial) }
    }

    public func storeEnrollment(_ enrollment: PersonalizationEnrollment, maxStoredBytes: Int) throws
        -> EnrollmentOutcome
    {
        let info = try Self.encode(enrollment.info)
        let nowDate = now()
        let adding = PersonalizationEnrollment.storedBytes(
            token: enrollment.token, encodedInfo: info, signature: enrollment.signature)
        let serial = enrollment.serialNumber, passType = enrollment.passTypeIdentifier
        return try pool.write { db in
            let state = try db.withStatement(
                "SELECT personalized_at IS NOT NULL, modified_at FROM passes WHERE serial = ?1 AND pass_type = ?2"
            ) { s -> (personalized: Bool, modified: Int64)? in
                try s.bind(1, serial)
                try s.bind(2, passType)
                return try s.step() ? (s.int(0) != 0, s.int64(1)) : nil
            }
            guard let state else { return .noPass }
            if state.personalized {
                return .alreadyPersonalized(try Self.selectEnrollment(db, passType: passType, serial: serial))
            }
            guard try Self.usage(db, .personalization).bytes + adding <= maxStoredBytes else { return .overCap }
            // A sign-up kept from an earlier issue of this serial (the pass was issued again since) stays as the
            // record of that sign-up; it no longer answers for the pass.
            try db.withStatement(
                "UPDATE personalizations SET signature = NULL WHERE serial = ?1 AND signature IS NOT NULL"
            ) { s in
                try s.bind(1, serial)
                try s.run()
            }
            let nowSeconds = Self.seconds(nowDate)
            try db.withStatement(
                """
                INSERT INTO personalizations (serial, pass_type, token, info, at, signature)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                """
            ) { s in
                try s.bind(1, serial)
                try s.bind(2, passType)
                try s.bind(3, enrollment.token)
                try s.bind(4, info)
                try s.bind(5, nowSeconds)
                try s.bind(6, blob: enrollment.signature)
                try s.run()
            }
            let tag = try Self.nextTag(db)
            try db.withStatement(
                "UPDATE passes SET personalized_at = ?2, tag = ?3, modified_at = ?4 WHERE serial = ?1"
            ) { s in
                try s.bind(1, serial)
                try s.bind(2, nowSeconds)
                try s.bind(3, tag)
                try s.bind(4, max(nowSeconds, state.modified + 1))
                try s.run()
            }
            _ = try Self.queuePushes(
                db, serial: serial, passType: passType, tag: tag, nowMilliseconds: Self.milliseconds(nowDate))
            return .stored(tag: tag)
        }
    }

    /// The personalization info stored for a serial, newest first.
    public func personalizations(serial: String) throws -> [[String: String]] {
        try pool.withConnection { db in
            try db.withStatement("SELECT info FROM personalizations WHERE serial = ?1 ORDER BY id DESC") { s in
                try s.bind(1, serial)
                var result: [[String: String]] = []
                while try s.step() { result.append(try Self.decode(s.string(0), serial: serial)) }
                return result
            }
        }
    }

    public func unauthenticatedUsage() throws -> [UnauthenticatedKind: UnauthenticatedUsage] {
        try pool.withConnection { db in
            var usage: [UnauthenticatedKind: UnauthenticatedUsage] = [:]
            for kind in UnauthenticatedKind.allCases { usage[kind] = try Self.usage(db, kind) }
            return usage
        }
    }

    public func deleteUnauthenticated(storedBefore cutoff: Date) throws -> [UnauthenticatedKind: Int] {
        let seconds = Self.seconds(cutoff)
        return try pool.write { db in
            var deleted: [UnauthenticatedKind: Int] = [:]
            for (kind, table) in [(UnauthenticatedKind.log, "logs"), (.personalization, "personalizations")] {
                deleted[kind] = try db.withStatement("DELETE FROM \(table) WHERE at < ?1") { s in
                    try s.bind(1, seconds)
                    try s.run()
                    return db.changes
                }
            }
            return deleted
        }
    }

    private static func usage(_ db: SQLiteConnection, _ kind: UnauthenticatedKind) throws -> UnauthenticatedUsage {
        try db.withStatement("SELECT bytes, rows FROM unauthenticated_usage WHERE kind = ?1") { s in
            try s.bind(1, kind.rawValue)
            return try s.step() ? UnauthenticatedUsage(bytes: s.int(0), rows: s.int(1)) : .init(bytes: 0, rows: 0)
        }
    }

    private static func selectEnrollment(_ db: SQLiteConnection, passType: String, serial: String) throws
        -> PersonalizationEnrollment?
    {
        try db.withStatement(
            """
            SELECT e.token, e.info, e.signature FROM personalizations e JOIN passes p ON p.serial = e.serial
            WHERE e.serial = ?1 AND e.pass_type = ?2 AND e.signature IS NOT NULL AND p.personalized_at IS NOT NULL
            """
        ) { s in
            try s.bind(1, serial)
            try s.bind(2, passType)
            guard try s.step() else { return nil }
            return PersonalizationEnrollment(
                passTypeIdentifier: passType, serialNumber: serial, token: s.string(0),
                info: try decode(s.string(1), serial: serial), signature: s.blob(2))
        }
    }
}
