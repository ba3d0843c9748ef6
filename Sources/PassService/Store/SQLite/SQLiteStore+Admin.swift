import Foundation

/// Counters and the admin view.
extension SQLiteStore {
    public func registrationsCount() throws -> Int {
        try count("SELECT count(*) FROM registrations")
    }

    public func outboxDepth() throws -> Int {
        try count("SELECT count(*) FROM push_outbox")
    }

    public func passTypeCounts() throws -> [String: Int] {
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

    public func details(serial: String) throws -> PassDetails? {
        try pool.withConnection { db in
            guard let pass = try Self.selectPass(db, serial: serial) else { return nil }
            let registrations = try db.withStatement(
                "SELECT device, created_at FROM registrations WHERE serial = ?1 AND pass_type = ?2 ORDER BY created_at"
            ) { s in
                try s.bind(1, serial)
                try s.bind(2, pass.passTypeIdentifier)
                var rows: [RegistrationInfo] = []
                while try s.step() {
                    rows.append(
                        RegistrationInfo(
                            deviceLibraryIdentifier: s.string(0),
                            registeredAt: Date(timeIntervalSince1970: TimeInterval(s.int64(1)))))
                }
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
}
