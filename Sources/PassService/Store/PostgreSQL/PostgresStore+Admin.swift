import Foundation

/// Counters and the admin view.
extension PostgresStore {
    public func registrationsCount() throws -> Int {
        try pool.withConnection { db in try db.query("SELECT count(*) FROM registrations").int(0, 0) }
    }

    public func outboxDepth() throws -> Int {
        try pool.withConnection { db in try db.query("SELECT count(*) FROM push_outbox").int(0, 0) }
    }

    public func passTypeCounts() throws -> [String: Int] {
        try pool.withConnection { db in
            let result = try db.query("SELECT pass_type, count(*) FROM passes GROUP BY pass_type")
            var counts: [String: Int] = [:]
            for row in 0..<result.rowCount { counts[result.string(row, 0)] = result.int(row, 1) }
            return counts
        }
    }

    public func details(serial: String) throws -> PassDetails? {
        try pool.withConnection { db in
            let passes = try db.query("SELECT \(Self.storedPassColumns) FROM passes WHERE serial = $1", [serial])
            guard passes.rowCount > 0 else { return nil }
            var pass = try Self.storedPass(passes, row: 0)
            pass.images = try Self.selectImages(db, serial: serial)
            let registrations = try db.query(
                """
                SELECT device, created_at FROM registrations WHERE serial = $1 AND pass_type = $2
                ORDER BY created_at, device
                """, [serial, pass.passTypeIdentifier])
            let history = try db.query(
                "SELECT result, tag, at, detail FROM push_history WHERE serial = $1 ORDER BY id DESC LIMIT 100",
                [serial])
            let pending = try db.query("SELECT count(*) FROM push_outbox WHERE serial = $1", [serial]).int(0, 0)
            return PassDetails(
                pass: pass,
                registrations: (0..<registrations.rowCount).map { row in
                    RegistrationInfo(
                        deviceLibraryIdentifier: registrations.string(row, 0),
                        registeredAt: Date(timeIntervalSince1970: TimeInterval(registrations.int64(row, 1))))
                },
                pushHistory: (0..<history.rowCount).map { row in
                    PushHistoryEntry(
                        result: PushHistoryResult(rawValue: history.string(row, 0)) ?? .failed,
                        tag: history.int64(row, 1),
                        at: Date(timeIntervalSince1970: TimeInterval(history.int64(row, 2))),
                        detail: history.string(row, 3))
                },
                pendingPushes: pending)
        }
    }
}
