import Foundation
import PassLog

/// Counters and the admin view.
extension PostgresStore {
    package func registrationsCount() throws -> Int {
        try pool.withConnection { db in try db.query("SELECT count(*) FROM registrations").int(0, 0) }
    }

    package func outboxDepth() throws -> Int {
        try pool.withConnection { db in try db.query("SELECT count(*) FROM push_outbox").int(0, 0) }
    }

    package func passTypeCounts() throws -> [String: Int] {
        try pool.withConnection { db in
            let result = try db.query("SELECT pass_type, count(*) FROM passes GROUP BY pass_type")
            var counts: [String: Int] = [:]
            for row in 0..<result.rowCount { counts[result.string(row, 0)] = result.int(row, 1) }
            return counts
        }
    }

    package func details(serial: String) throws -> PassDetails? {
        try pool.withConnection { db in
            let passes = try db.query("SELECT \(Self.storedPassColumns) FROM passes WHERE serial = $1", [serial])
            guard passes.rowCount > 0 else { return nil }
            var pass = try Self.storedPass(passes, row: 0)
            pass.images = try Self.selectImages(db, serial: serial)
            let registrations = try db.query(
                """
                SELECT r.created_at, r.tag, d.push_token, r.device FROM registrations r
                LEFT JOIN devices d ON d.device_library_id = r.device
                WHERE r.serial = $1 AND r.pass_type = $2 ORDER BY r.created_at, r.device
                """, [serial, pass.passTypeIdentifier])
            let history = try db.query(
                "SELECT result, tag, at, detail FROM push_history WHERE serial = $1 ORDER BY id DESC LIMIT 100",
                [serial])
            let pending = try db.query("SELECT count(*) FROM push_outbox WHERE serial = $1", [serial]).int(0, 0)
            return PassDetails(
                pass: pass,
                registrations: (0..<registrations.rowCount).map { row in
                    Self.registrationInfo(registrations, row: row, device: registrations.string(row, 3))
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

    /// A registration from a row of `created_at, tag, push_token` (columns 0–2).
    static func registrationInfo(_ result: PGResult, row: Int, device: String) -> RegistrationInfo {
        RegistrationInfo(
            deviceLibraryIdentifier: device,
            registeredAt: Date(timeIntervalSince1970: TimeInterval(result.int64(row, 0))),
            tag: result.optionalString(row, 1).flatMap { Int64($0) },
            pushTokenPrefix: ServiceLog.redacted(pushToken: result.optionalString(row, 2) ?? ""))
    }
}
