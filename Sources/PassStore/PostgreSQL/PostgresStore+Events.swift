import Foundation

/// The events of passes (`PassEventStore`) and the push answers of the outbox, on PostgreSQL: each batch is a few
/// statements over arrays in one transaction, whatever its size.
extension PostgresStore: PassEventStore {
    package func recordEvents(_ events: [PassEvent], lists: [ListRequest], keepPerPass: Int) throws {
        guard !events.isEmpty || !lists.isEmpty else { return }
        try pool.transaction { db in
            var touched: [String: Int] = [:]
            for serial in try Self.insertEvents(db, events) { touched[serial, default: 0] += 1 }
            if !lists.isEmpty {
                let answers = lists.map { list in
                    String(
                        decoding: (try? JSONSerialization.data(withJSONObject: list.serials)) ?? Data("[]".utf8),
                        as: UTF8.self)
                }
                let inserted = try db.query(
                    """
                    INSERT INTO pass_events (serial, pass_type, device, kind, at, tag, detail)
                    SELECT r.serial, r.pass_type, r.device, 'listed', u.at, u.since,
                        json_build_object('status', u.status, 'included', u.answers::jsonb ? r.serial,
                            'since', u.since, 'lastUpdated', u.last_updated, 'count', nullif(u.count, 1))::text
                    FROM unnest($1::text[], $2::text[], $3::bigint[], $4::int[], $5::text[], $6::bigint[], $7::bigint[],
                        $8::int[]) AS u(device, pass_type, since, status, answers, last_updated, at, count)
                    JOIN registrations r ON r.device = u.device AND r.pass_type = u.pass_type
                    RETURNING serial
                    """,
                    [
                        Self.textArray(lists.map(\.device)), Self.textArray(lists.map(\.passType)),
                        Self.textArray(lists.map { $0.since.map(String.init) }),
                        Self.textArray(lists.map { String($0.status) }), Self.textArray(answers),
                        Self.textArray(lists.map { $0.lastUpdated.map(String.init) }),
                        Self.textArray(lists.map { String(RecordCoding.milliseconds($0.at)) }),
                        Self.textArray(lists.map { String($0.count) }),
                    ])
                for row in 0..<inserted.rowCount { touched[inserted.string(row, 0), default: 0] += 1 }
            }
            try trimEvents(db, added: touched, keep: keepPerPass)
        }
    }

    /// Inserts `events` (a log line only for a pass that exists: it is anyone's text); the serials inserted.
    private static func insertEvents(_ db: PGConnection, _ events: [PassEvent]) throws -> [String] {
        guard !events.isEmpty else { return [] }
        let inserted = try db.query(
            """
            INSERT INTO pass_events (serial, pass_type, device, kind, at, tag, detail)
            SELECT u.serial, u.pass_type, u.device, u.kind, u.at, u.tag, u.detail
            FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::text[])
                AS u(serial, pass_type, device, kind, at, tag, detail)
            WHERE u.kind <> 'logged'
                OR EXISTS (SELECT 1 FROM passes p WHERE p.serial = u.serial AND p.pass_type = u.pass_type)
            RETURNING serial
            """,
            [
                textArray(events.map(\.serial)), textArray(events.map(\.passType)),
                textArray(events.map(\.device)), textArray(events.map(\.kind.rawValue)),
                textArray(events.map { String(RecordCoding.milliseconds($0.at)) }),
                textArray(events.map { $0.tag.map(String.init) }),
                textArray(events.map { PassEventCoding.encode($0.detail, count: $0.count) }),
            ])
        return (0..<inserted.rowCount).map { inserted.string($0, 0) }
    }

    /// The `registered` events of every registration of the push tokens of the outbox rows `ids` (all pass types).
    private static func registrationsOfTokens(_ db: PGConnection, outboxIDs ids: [Int64]) throws -> [PassEvent] {
        guard !ids.isEmpty else { return [] }
        let rows = try db.query(
            """
            SELECT DISTINCT r.created_at, r.tag, d.push_token, r.device, r.serial, r.pass_type
            FROM push_outbox o JOIN devices d ON d.push_token = o.push_token
            JOIN registrations r ON r.device = d.device_library_id WHERE o.id = ANY($1::bigint[])
            """, [textArray(ids.map(String.init))])
        return (0..<rows.rowCount).map { row in
            .registration(
                registrationInfo(rows, row: row, device: rows.string(row, 3)), serial: rows.string(row, 4),
                passType: rows.string(row, 5))
        }
    }

    package func recordPushAttempts(_ attempts: [PushAttempt], keepPerPass: Int) throws {
        guard !attempts.isEmpty else { return }
        let details = attempts.map {
            PassEventCoding.encode(
                .pushed(
                    status: $0.status, reason: $0.reason, apnsID: $0.apnsID, apnsTimestamp: $0.apnsTimestamp,
                    authentication: $0.authentication))
        }
        try pool.transaction { db in
            // One event per pass the device holds of this type (the push wakes it for all of them); a row whose
            // token has no registration left is recorded under its own serial, without a device.
            let inserted = try db.query(
                """
                WITH u AS (
                    SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[]) AS u(id, at, detail)
                ), held AS (
                    SELECT r.serial, o.pass_type, d.device_library_id AS device, u.at, o.tag, u.detail, u.id
                    FROM u JOIN push_outbox o ON o.id = u.id
                    JOIN devices d ON d.push_token = o.push_token
                    JOIN registrations r ON r.device = d.device_library_id AND r.pass_type = o.pass_type
                )
                INSERT INTO pass_events (serial, pass_type, device, kind, at, tag, detail)
                SELECT serial, pass_type, device, 'pushed', at, tag, detail FROM held
                UNION ALL
                SELECT o.serial, o.pass_type, NULL, 'pushed', u.at, o.tag, u.detail
                FROM u JOIN push_outbox o ON o.id = u.id WHERE NOT EXISTS (SELECT 1 FROM held WHERE held.id = u.id)
                RETURNING serial
                """,
                [
                    Self.textArray(attempts.map { String($0.outboxID) }),
                    Self.textArray(attempts.map { String(RecordCoding.milliseconds($0.at)) }),
                    Self.textArray(details),
                ])
            var touched: [String: Int] = [:]
            for row in 0..<inserted.rowCount { touched[inserted.string(row, 0), default: 0] += 1 }
            let ending = try Self.registrationsOfTokens(
                db, outboxIDs: attempts.filter(\.endsRegistrations).map(\.outboxID))
            for serial in try Self.insertEvents(db, ending) { touched[serial, default: 0] += 1 }
            try trimEvents(db, added: touched, keep: keepPerPass)
        }
    }

    package func passEvents(serial: String) throws -> [PassEvent] {
        try pool.withConnection { db in
            let result = try db.query(
                "SELECT pass_type, device, kind, at, tag, detail FROM pass_events WHERE serial = $1 ORDER BY at, id",
                [serial])
            return (0..<result.rowCount).compactMap { row in
                guard let decoded = PassEventCoding.decode(kind: result.string(row, 2), result.string(row, 5)) else {
                    return nil
                }
                return PassEvent(
                    serial: serial, passType: result.string(row, 0), device: result.optionalString(row, 1),
                    at: Date(timeIntervalSince1970: Double(result.int64(row, 3)) / 1000),
                    tag: result.optionalString(row, 4).flatMap { Int64($0) }, detail: decoded.detail,
                    count: decoded.count)
            }
        }
    }

    package func passVersions(serial: String) throws -> [PassVersionRecord] {
        try pool.withConnection { db in
            let result = try db.query(
                "SELECT tag, modified_at, voided, changed FROM pass_versions WHERE serial = $1 ORDER BY id", [serial])
            return (0..<result.rowCount).map { row in
                PassVersionRecord(
                    tag: result.int64(row, 0), modifiedAtSeconds: result.int64(row, 1), voided: result.bool(row, 2),
                    changed: PassEventCoding.decodeChanges(result.string(row, 3)))
            }
        }
    }

    package func deleteEvents(before cutoff: Date) throws -> Int {
        try pool.transaction { db in
            // Rows are appended in time order, so the old ones are the first ids: found without an index on the
            // time (which every insert and trim would have to keep up).
            let events = try db.query(
                """
                DELETE FROM pass_events WHERE id < coalesce(
                    (SELECT id FROM pass_events WHERE at >= $1 ORDER BY id LIMIT 1),
                    (SELECT max(id) + 1 FROM pass_events))
                """, [String(RecordCoding.milliseconds(cutoff))])
            // The newest version of a pass stays, however old: it is the pass as it is.
            let versions = try db.query(
                """
                DELETE FROM pass_versions v WHERE modified_at < $1
                AND id <> (SELECT max(id) FROM pass_versions w WHERE w.serial = v.serial)
                """, [String(RecordCoding.seconds(cutoff))])
            return events.affectedRows + versions.affectedRows
        }
    }

    /// Trims each pass of `added` (serial → events just written) that can hold more than `keep` events to its
    /// newest `EventTrimLedger.target(keep:)`.
    func trimEvents(_ db: PGConnection, added: [String: Int], keep: Int) throws {
        let serials = eventLedger.toTrim(added, keep: keep)
        guard !serials.isEmpty else { return }
        try db.query(
            """
            DELETE FROM pass_events e USING (
                SELECT t.serial, (SELECT id FROM pass_events x WHERE x.serial = t.serial ORDER BY id DESC
                    LIMIT 1 OFFSET $2) AS cut
                FROM unnest($1::text[]) AS t(serial)
            ) c
            WHERE e.serial = c.serial AND e.id <= c.cut
            """, [Self.textArray(serials), String(EventTrimLedger.target(keep: keep))])
        eventLedger.trimmed(serials, keep: keep)
    }
}
