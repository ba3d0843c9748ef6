import Foundation

/// The push outbox shared by the pushers of every instance.
///
/// A claim is `SELECT … FOR UPDATE SKIP LOCKED` plus a lease written into the row: concurrent claims skip the
/// rows another instance is claiming this instant, and the lease keeps them away afterwards, while that
/// instance waits for APNs. Rows are deleted only once APNs answered; if the claiming instance dies first,
/// its lease ends and another instance's next claim takes the rows (at least once, never lost).
///
/// The claim and the batch completion are planned on each call (`queryPlanned`): the outbox goes from empty to
/// thousands of rows in one update, and a plan cached while it was empty is the wrong one for it full.
extension PostgresStore {
    package func claimDuePushes(limit: Int, now: Date, lease: TimeInterval) throws -> [PushJob] {
        let nowMilliseconds = RecordCoding.milliseconds(now)
        let leaseUntil = nowMilliseconds + Int64((lease * 1000).rounded(.up))
        return try pool.withConnection { db in
            // ARRAY(…) is an init plan, run exactly once: the rows it locks are the rows updated, at most `limit`.
            let result = try db.queryPlanned(
                """
                UPDATE push_outbox SET claimed_until = $2 WHERE id = ANY(ARRAY(
                    SELECT id FROM push_outbox WHERE due_at <= $1 AND claimed_until <= $1
                    ORDER BY due_at, id LIMIT $3 FOR UPDATE SKIP LOCKED))
                RETURNING id, push_token, pass_type, attempts
                """, [String(nowMilliseconds), String(leaseUntil), String(limit)])
            return (0..<result.rowCount).map { row in
                PushJob(
                    id: result.int64(row, 0), pushToken: result.string(row, 1),
                    passTypeIdentifier: result.string(row, 2), attempts: result.int(row, 3))
            }.sorted { $0.id < $1.id }
        }
    }

    package func completePush(id: Int64) throws {
        try completePushes(ids: [id])
    }

    package func completePushes(ids: [Int64]) throws {
        guard !ids.isEmpty else { return }
        let list = "{" + ids.map(String.init).joined(separator: ",") + "}"
        try finish(ids: list, result: .sent, detail: "")
    }

    package func retryPush(id: Int64, at: Date, reason: String) throws {
        let nowSeconds = String(RecordCoding.seconds(now()))
        try pool.withConnection { db in
            try db.query(
                """
                WITH row AS (
                    UPDATE push_outbox SET attempts = attempts + 1, first_due_at = coalesce(first_due_at, due_at),
                        due_at = $2, claimed_until = 0, last_error = $3
                    WHERE id = $1 RETURNING serial, pass_type, tag
                )
                INSERT INTO push_history (serial, pass_type, tag, result, detail, at)
                SELECT serial, pass_type, tag, 'retry', $3, $4 FROM row
                """, [String(id), String(RecordCoding.milliseconds(at)), reason, nowSeconds])
        }
    }

    package func dropPush(id: Int64, deletingRegistrationsFor pushToken: String, reason: String) throws {
        let nowSeconds = String(RecordCoding.seconds(now()))
        // The deleted registrations reach other instances' caches by notification; this one's at once (rare:
        // the devices of the token are not known here, so every cached list goes).
        defer { changes?.everythingChanged() }
        try pool.transaction { db in
            try Self.recordHistory(db, ids: "{\(id)}", result: .dropped, detail: reason, at: nowSeconds)
            try db.query("DELETE FROM push_outbox WHERE id = $1 OR push_token = $2", [String(id), pushToken])
            try Self.deleteDeadTokenRegistrations(db, pushToken: pushToken, day: UTCDay(now()).number)
            try db.query("DELETE FROM devices WHERE push_token = $1", [pushToken])
        }
    }

    package func oldestPendingPush() throws -> Date? {
        try pool.withConnection { db in
            let result = try db.query("SELECT min(coalesce(first_due_at, due_at)) FROM push_outbox")
            guard result.rowCount > 0, let ms = result.optionalString(0, 0).flatMap({ Int64($0) }) else { return nil }
            return Date(timeIntervalSince1970: Double(ms) / 1000)
        }
    }

    package func abandonPush(id: Int64, reason: String) throws {
        try finish(ids: "{\(id)}", result: .failed, detail: reason)
    }

    /// Records the rows (a PostgreSQL array literal of ids) in the history and deletes them, in one statement.
    private func finish(ids: String, result: PushHistoryResult, detail: String) throws {
        let nowSeconds = String(RecordCoding.seconds(now()))
        try pool.withConnection { db in
            try db.queryPlanned(
                """
                WITH done AS (
                    DELETE FROM push_outbox WHERE id = ANY($1::bigint[]) RETURNING serial, pass_type, tag
                )
                INSERT INTO push_history (serial, pass_type, tag, result, detail, at)
                SELECT serial, pass_type, tag, $2, $3, $4 FROM done
                """, [ids, result.rawValue, detail, nowSeconds])
        }
    }

    private static func recordHistory(
        _ db: PGConnection, ids: String, result: PushHistoryResult, detail: String, at: String
    ) throws {
        try db.query(
            """
            INSERT INTO push_history (serial, pass_type, tag, result, detail, at)
            SELECT serial, pass_type, tag, $2, $3, $4 FROM push_outbox WHERE id = ANY($1::bigint[])
            """, [ids, result.rawValue, detail, at])
    }
}
