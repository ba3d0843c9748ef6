import Foundation

/// The events of passes (`PassEventStore`) and the push answers of the outbox, on SQLite.
extension SQLiteStore: PassEventStore {
    static let insertEvent = """
        INSERT INTO pass_events (serial, pass_type, device, kind, at, tag, detail) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
        """

    package func recordEvents(_ events: [PassEvent], lists: [ListRequest], keepPerPass: Int) throws {
        guard !events.isEmpty || !lists.isEmpty else { return }
        // Encoded before the write lock is taken: the lock is the one registrations commit under.
        let details = events.map { PassEventCoding.encode($0.detail, count: $0.count) }
        let listDetails = lists.map { list in
            [false, true].map { included in
                PassEventCoding.encode(
                    .listed(
                        since: list.since, status: list.status, included: included, lastUpdated: list.lastUpdated),
                    count: list.count)
            }
        }
        try pool.write { db in
            var touched: [String: Int] = [:]
            for (event, detail) in zip(events, details) {
                if case .logged = event.detail {
                    // A log line is anyone's text: kept only for a pass that exists.
                    let known = try db.withStatement("SELECT 1 FROM passes WHERE serial = ?1 AND pass_type = ?2") { s in
                        try s.bind(1, event.serial)
                        try s.bind(2, event.passType)
                        return try s.step()
                    }
                    guard known else { continue }
                }
                try Self.insert(db, event, detail: detail)
                touched[event.serial, default: 0] += 1
            }
            for (list, detail) in zip(lists, listDetails) {
                let serials: [String] = try db.withStatement(
                    "SELECT serial FROM registrations WHERE device = ?1 AND pass_type = ?2"
                ) { s in
                    try s.bind(1, list.device)
                    try s.bind(2, list.passType)
                    var found: [String] = []
                    while try s.step() { found.append(s.string(0)) }
                    return found
                }
                let answered = Set(list.serials)
                for serial in serials {
                    let event = PassEvent(
                        serial: serial, passType: list.passType, device: list.device, at: list.at, tag: list.since,
                        detail: .listed(
                            since: list.since, status: list.status, included: answered.contains(serial),
                            lastUpdated: list.lastUpdated))
                    try Self.insert(db, event, detail: detail[answered.contains(serial) ? 1 : 0])
                    touched[serial, default: 0] += 1
                }
            }
            try trimEvents(db, added: touched, keep: keepPerPass)
        }
    }

    package func recordPushAttempts(_ attempts: [PushAttempt], keepPerPass: Int) throws {
        guard !attempts.isEmpty else { return }
        let details = attempts.map { attempt in
            PassEventCoding.encode(
                .pushed(
                    status: attempt.status, reason: attempt.reason, apnsID: attempt.apnsID,
                    apnsTimestamp: attempt.apnsTimestamp, authentication: attempt.authentication))
        }
        try pool.write { db in
            var touched: [String: Int] = [:]
            for attempt in attempts where attempt.endsRegistrations {
                for event in try Self.registrationsOfToken(db, outboxID: attempt.outboxID) {
                    try Self.insert(db, event, detail: PassEventCoding.encode(event.detail))
                    touched[event.serial, default: 0] += 1
                }
            }
            for (attempt, detail) in zip(attempts, details) {
                // One event per pass the device holds of this type: the push wakes it for all of them.
                let perPass = try db.withStatement(
                    """
                    INSERT INTO pass_events (serial, pass_type, device, kind, at, tag, detail)
                    SELECT r.serial, o.pass_type, d.device_library_id, 'pushed', ?2, o.tag, ?3
                    FROM push_outbox o JOIN devices d ON d.push_token = o.push_token
                    JOIN registrations r ON r.device = d.device_library_id AND r.pass_type = o.pass_type
                    WHERE o.id = ?1 RETURNING serial
                    """
                ) { s in
                    try s.bind(1, attempt.outboxID)
                    try s.bind(2, Self.milliseconds(attempt.at))
                    try s.bind(3, detail)
                    var serials: [String] = []
                    while try s.step() { serials.append(s.string(0)) }
                    return serials
                }
                for serial in perPass { touched[serial, default: 0] += 1 }
                if perPass.isEmpty {
                    let serial: String? = try db.withStatement(
                        """
                        INSERT INTO pass_events (serial, pass_type, device, kind, at, tag, detail)
                        SELECT serial, pass_type, NULL, 'pushed', ?2, tag, ?3 FROM push_outbox WHERE id = ?1
                        RETURNING serial
                        """
                    ) { s in
                        try s.bind(1, attempt.outboxID)
                        try s.bind(2, Self.milliseconds(attempt.at))
                        try s.bind(3, detail)
                        return try s.step() ? s.string(0) : nil
                    }
                    if let serial { touched[serial, default: 0] += 1 }
                }
            }
            try trimEvents(db, added: touched, keep: keepPerPass)
        }
    }

    /// The `registered` events of every registration of the outbox row's push token (all pass types).
    private static func registrationsOfToken(_ db: SQLiteConnection, outboxID: Int64) throws -> [PassEvent] {
        try db.withStatement(
            """
            SELECT r.created_at, r.tag, d.push_token, r.device, r.serial, r.pass_type
            FROM push_outbox o JOIN devices d ON d.push_token = o.push_token
            JOIN registrations r ON r.device = d.device_library_id WHERE o.id = ?1
            """
        ) { s in
            try s.bind(1, outboxID)
            var events: [PassEvent] = []
            while try s.step() {
                events.append(
                    .registration(registrationInfo(s, device: s.string(3)), serial: s.string(4), passType: s.string(5)))
            }
            return events
        }
    }

    package func passEvents(serial: String) throws -> [PassEvent] {
        try pool.withConnection { db in
            try db.withStatement(
                "SELECT pass_type, device, kind, at, tag, detail FROM pass_events WHERE serial = ?1 ORDER BY at, id"
            ) { s in
                try s.bind(1, serial)
                var events: [PassEvent] = []
                while try s.step() {
                    guard let decoded = PassEventCoding.decode(kind: s.string(2), s.string(5)) else { continue }
                    events.append(
                        PassEvent(
                            serial: serial, passType: s.string(0), device: s.optionalString(1),
                            at: Date(timeIntervalSince1970: Double(s.int64(3)) / 1000),
                            tag: s.optionalString(4).flatMap { Int64($0) }, detail: decoded.detail,
                            count: decoded.count))
                }
                return events
            }
        }
    }

    package func passVersions(serial: String) throws -> [PassVersionRecord] {
        try pool.withConnection { db in
            try db.withStatement(
                "SELECT tag, modified_at, voided, changed FROM pass_versions WHERE serial = ?1 ORDER BY id"
            ) { s in
                try s.bind(1, serial)
                var versions: [PassVersionRecord] = []
                while try s.step() {
                    versions.append(
                        PassVersionRecord(
                            tag: s.int64(0), modifiedAtSeconds: s.int64(1), voided: s.int(2) != 0,
                            changed: PassEventCoding.decodeChanges(s.string(3))))
                }
                return versions
            }
        }
    }

    package func deleteEvents(before cutoff: Date) throws -> Int {
        try pool.write { db in
            var deleted = 0
            for (sql, value) in [
                // Rows are appended in time order, so the old ones are the first rowids: found without an index
                // on the time (which every insert and trim would have to keep up).
                (
                    """
                    DELETE FROM pass_events WHERE rowid < coalesce(
                        (SELECT rowid FROM pass_events WHERE at >= ?1 ORDER BY rowid LIMIT 1),
                        (SELECT max(rowid) + 1 FROM pass_events))
                    """, Self.milliseconds(cutoff)
                ),
                // The newest version of a pass stays, however old: it is the pass as it is.
                (
                    """
                    DELETE FROM pass_versions WHERE modified_at < ?1
                    AND id <> (SELECT max(id) FROM pass_versions v WHERE v.serial = pass_versions.serial)
                    """, Self.seconds(cutoff)
                ),
            ] {
                deleted += try db.withStatement(sql) { s in
                    try s.bind(1, value)
                    try s.run()
                    return db.changes
                }
            }
            return deleted
        }
    }

    /// Trims each pass of `added` (serial → events just written) that can hold more than `keep` events to its
    /// newest `EventTrimLedger.target(keep:)`. Called under the write lock, so the ledger follows the commits.
    func trimEvents(_ db: SQLiteConnection, added: [String: Int], keep: Int) throws {
        let serials = eventLedger.toTrim(added, keep: keep)
        for serial in serials {
            try db.withStatement(
                """
                DELETE FROM pass_events WHERE serial = ?1 AND id <= (
                    SELECT id FROM pass_events WHERE serial = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2)
                """
            ) { s in
                try s.bind(1, serial)
                try s.bind(2, EventTrimLedger.target(keep: keep))
                try s.run()
            }
        }
        eventLedger.trimmed(serials, keep: keep)
    }

    private static func insert(_ db: SQLiteConnection, _ event: PassEvent, detail: String) throws {
        try db.withStatement(insertEvent) { s in
            try s.bind(1, event.serial)
            try s.bind(2, event.passType)
            try s.bind(3, event.device)
            try s.bind(4, event.kind.rawValue)
            try s.bind(5, milliseconds(event.at))
            if let tag = event.tag { try s.bind(6, tag) }
            try s.bind(7, detail)
            try s.run()
        }
    }
}
