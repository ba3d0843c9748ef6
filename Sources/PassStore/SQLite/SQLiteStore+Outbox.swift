import Foundation

/// The push outbox: leased claims, so several pushers (threads or processes) never take the same row.
extension SQLiteStore {
    package func claimDuePushes(limit: Int, now: Date, lease: TimeInterval) throws -> [PushJob] {
        let nowMilliseconds = Self.milliseconds(now)
        let leaseUntil = nowMilliseconds + Int64((lease * 1000).rounded(.up))
        return try pool.write { db in
            try db.withStatement(
                """
                UPDATE push_outbox SET claimed_until = ?2 WHERE id IN (
                    SELECT id FROM push_outbox WHERE due_at <= ?1 AND claimed_until <= ?1
                    ORDER BY due_at, id LIMIT ?3)
                RETURNING id, push_token, pass_type, attempts
                """
            ) { s in
                try s.bind(1, nowMilliseconds)
                try s.bind(2, leaseUntil)
                try s.bind(3, limit)
                var jobs: [PushJob] = []
                while try s.step() {
                    jobs.append(
                        PushJob(
                            id: s.int64(0), pushToken: s.string(1), passTypeIdentifier: s.string(2),
                            attempts: s.int(3)))
                }
                return jobs.sorted { $0.id < $1.id }
            }
        }
    }

    package func completePush(id: Int64) throws {
        try finish(id: id, result: .sent, detail: "")
    }

    package func completePushes(ids: [Int64]) throws {
        let nowSeconds = Self.seconds(now())
        try pool.write { db in
            for id in ids {
                try Self.recordHistory(db, id: id, result: .sent, detail: "", at: nowSeconds)
                try db.withStatement("DELETE FROM push_outbox WHERE id = ?1") { s in
                    try s.bind(1, id)
                    try s.run()
                }
            }
        }
    }

    package func retryPush(id: Int64, at: Date, reason: String) throws {
        let nowSeconds = Self.seconds(now())
        try pool.write { db in
            try Self.recordHistory(db, id: id, result: .retry, detail: reason, at: nowSeconds)
            try db.withStatement(
                """
                UPDATE push_outbox SET attempts = attempts + 1, first_due_at = coalesce(first_due_at, due_at),
                    due_at = ?2, claimed_until = 0, last_error = ?3
                WHERE id = ?1
                """
            ) { s in
                try s.bind(1, id)
                try s.bind(2, Self.milliseconds(at))
                try s.bind(3, reason)
                try s.run()
            }
        }
    }

    package func dropPush(id: Int64, deletingRegistrationsFor pushToken: String, reason: String) throws {
        let nowSeconds = Self.seconds(now())
        try pool.write { db in
            try Self.recordHistory(db, id: id, result: .dropped, detail: reason, at: nowSeconds)
            try db.withStatement("DELETE FROM push_outbox WHERE id = ?1 OR push_token = ?2") { s in
                try s.bind(1, id)
                try s.bind(2, pushToken)
                try s.run()
            }
            try Self.countDeadTokenRegistrations(db, pushToken: pushToken, day: UTCDay(seconds: nowSeconds).number)
            for sql in [
                """
                DELETE FROM registrations WHERE device IN
                    (SELECT device_library_id FROM devices WHERE push_token = ?1)
                """,
                "DELETE FROM devices WHERE push_token = ?1",
            ] {
                try db.withStatement(sql) { s in
                    try s.bind(1, pushToken)
                    try s.run()
                }
            }
        }
    }

    package func oldestPendingPush() throws -> Date? {
        try pool.withConnection { db in
            try db.withStatement("SELECT min(coalesce(first_due_at, due_at)) FROM push_outbox") { s in
                guard try s.step(), let text = s.optionalString(0), let ms = Int64(text) else { return nil }
                return Date(timeIntervalSince1970: Double(ms) / 1000)
            }
        }
    }

    package func abandonPush(id: Int64, reason: String) throws {
        try finish(id: id, result: .failed, detail: reason)
    }

    private func finish(id: Int64, result: PushHistoryResult, detail: String) throws {
        let nowSeconds = Self.seconds(now())
        try pool.write { db in
            try Self.recordHistory(db, id: id, result: result, detail: detail, at: nowSeconds)
            try db.withStatement("DELETE FROM push_outbox WHERE id = ?1") { s in
                try s.bind(1, id)
                try s.run()
            }
        }
    }

    private static func recordHistory(
        _ db: SQLiteConnection, id: Int64, result: PushHistoryResult, detail: String, at: Int64
    ) throws {
        try db.withStatement(
            """
            INSERT INTO push_history (serial, pass_type, tag, result, detail, at)
            SELECT serial, pass_type, tag, ?2, ?3, ?4 FROM push_outbox WHERE id = ?1
            """
        ) { s in
            try s.bind(1, id)
            try s.bind(2, result.rawValue)
            try s.bind(3, detail)
            try s.bind(4, at)
            try s.run()
        }
    }
}
