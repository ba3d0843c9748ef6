import Foundation
import PassLog

/// Counters and the admin view.
extension SQLiteStore {
    package func registrationsCount() throws -> Int {
        try count("SELECT count(*) FROM registrations")
    }

    package func outboxDepth() throws -> Int {
        try count("SELECT count(*) FROM push_outbox")
    }

    package func passTypeCounts() throws -> [String: Int] {
        try pool.withConnection { db in
            try db.withStatement("SELECT pass_type, count(*) FROM passes GROUP BY pass_type") { s in
                var counts: [String: Int] = [:]
                while try s.step() { counts[s.string(0)] = s.int(1) }
                return counts
            }
        }
    }

    private func count(_ sql: String) throws -> Int {
        try pool.withConnection { db in
            try db.withStatement(sql) { s in try s.step() ? s.int(0) : 0 }
        }
    }

    package func details(serial: String) throws -> PassDetails? {
        try pool.withConnection { db in
            guard let pass = try Self.selectPass(db, serial: serial) else { return nil }
            let registrations = try db.withStatement(
                """
                SELECT r.created_at, r.tag, d.push_token, r.device FROM registrations r
                LEFT JOIN devices d ON d.device_library_id = r.device
                WHERE r.serial = ?1 AND r.pass_type = ?2 ORDER BY r.created_at, r.device
                """
            ) { s in
                try s.bind(1, serial)
                try s.bind(2, pass.passTypeIdentifier)
                var rows: [RegistrationInfo] = []
                while try s.step() { rows.append(Self.registrationInfo(s, device: s.string(3))) }
                return rows
            }
            let history = try db.withStatement(
                "SELECT result, tag, at, detail FROM push_history WHERE serial = ?1 ORDER BY id DESC LIMIT 100"
            ) { s in
                try s.bind(1, serial)
                var rows: [PushHistoryEntry] = []
                while try s.step() {
                    rows.append(
                        PushHistoryEntry(
                            result: PushHistoryResult(rawValue: s.string(0)) ?? .failed, tag: s.int64(1),
                            at: Date(timeIntervalSince1970: TimeInterval(s.int64(2))), detail: s.string(3)))
                }
                return rows
            }
            let pending = try db.withStatement("SELECT count(*) FROM push_outbox WHERE serial = ?1") { s in
                try s.bind(1, serial)
                return try s.step() ? s.int(0) : 0
            }
            return PassDetails(pass: pass, registrations: registrations, pushHistory: history, pendingPushes: pending)
        }
    }

    /// A registration from a row of `created_at, tag, push_token` (columns 0–2).
    static func registrationInfo(_ s: SQLiteStatement, device: String) -> RegistrationInfo {
        RegistrationInfo(
            deviceLibraryIdentifier: device, registeredAt: Date(timeIntervalSince1970: TimeInterval(s.int64(0))),
            tag: s.optionalString(1).flatMap { Int64($0) },
            pushTokenPrefix: ServiceLog.redacted(pushToken: s.optionalString(2) ?? ""))
    }
}
