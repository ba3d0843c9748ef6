import Foundation

/// The `PassStore` that several `passmint serve` instances share: one PostgreSQL database.
///
/// Every write is one statement or one transaction on the server, so instances need no coordination of their
/// own: update tags come from the `pass_tag` sequence (monotonic across instances), `Last-Modified` seconds are
/// raised under the row lock of the UPDATE, and pushers claim outbox rows with `FOR UPDATE SKIP LOCKED` and a
/// lease (see `PostgresStore+Outbox.swift`).
package final class PostgresStore: PassStore, PushOutbox, PassLinkStore {
    let pool: PostgresPool
    let now: @Sendable () -> Date
    /// Which passes' events need trimming (`recordEvents`).
    let eventLedger = EventTrimLedger()
    /// The caches of `passVersion` and `updatedSerials` and the pusher wake-up; nil unless listening.
    let changes: PostgresChangeFeed?
    /// Registrations that arrive together are written by one statement (`PostgresStore+Registrations.swift`).
    let registrationGroup = GroupCommit<PendingRegistration>(limit: PostgresStore.registrationGroupLimit)
    /// The connection that statement runs on (one leader at a time), beyond `pool`.
    let registrationPool: PostgresPool

    /// Connects (opening one connection at once, so an unreachable server is reported now) and brings the schema
    /// up to date under an advisory lock.
    /// - Parameters:
    ///   - url: the server and database; a password comes from it or from `PGPASSFILE` (libpq reads both).
    ///   - poolSize: connections for queries (each instance of a deployment has its own pool); registrations
    ///     have one more of their own, opened with the first.
    ///   - now: the clock; tests pass a fixed one.
    ///   - listensForChanges: keep one more connection that `LISTEN`s for the changes every instance makes,
    ///     to cache versions and registration lists in memory and to wake the pusher when any instance queued
    ///     pushes (`serve`; see `PostgresChangeFeed` for how stale a cached read can be).
    /// - Throws: `StoreError.databaseUnavailable` when the server cannot be reached, `.postgres` when a
    ///   migration fails, `.schemaTooNew` for a database migrated by a newer PassMint.
    package init(
        url: PostgresURL, poolSize: Int = 8, now: @escaping @Sendable () -> Date = { Date() },
        listensForChanges: Bool = false
    ) throws {
        self.pool = PostgresPool(url: url, size: poolSize)
        self.registrationPool = PostgresPool(url: url, size: 1, setUp: Self.setUpRegistrationConnection)
        self.now = now
        try pool.withConnection { try PostgresSchema.migrate($0) }
        changes = listensForChanges ? PostgresChangeFeed(url: url) : nil
        changes?.start()
    }

    deinit { changes?.stop() }

    /// The server, without password.
    package var server: String { pool.url.description }

    /// The connections this store opens at most.
    package var poolSize: Int { pool.size }

    /// The columns an insert writes.
    static let passColumns =
        "serial, pass_type, template, record, auth_token, tag, modified_at, voided, web_service_url, compatible_pass"
    /// The columns a read maps (`storedPass`): the inserted ones and what the store sets itself.
    static let storedPassColumns = passColumns + ", personalized_at"

    package func insertPasses(_ passes: [StoredPass]) throws { try insertPasses(passes, links: []) }

    package func insertPasses(_ passes: [StoredPass], links: [PassLinkGrant]) throws {
        guard !passes.isEmpty else { return }
        let nowSeconds = String(RecordCoding.seconds(now()))
        let day = UTCDay(now()).number
        let shard = Self.shard()
        let records = RecordCoding.encode(passes.map(\.record))
        let rows = zip(passes, records).map { pass, record in
            [
                pass.serialNumber, pass.passTypeIdentifier, pass.templatePath, record,
                pass.authenticationToken, nowSeconds, pass.voided ? "true" : "false", pass.webServiceURL,
                pass.compatiblePass ? "true" : "false",
            ] as [PGParameter]
        }
        // One statement cannot change a row twice: a serial given twice is upserted row by row, in order.
        let distinct =
            Set(passes.map(\.serialNumber)).count == passes.count
            && Set(links.map(\.serialNumber)).count == links.count
        let groups = distinct ? [Array(zip(passes, rows))] : zip(passes, rows).map { [$0] }
        try pool.transaction { db in
            for group in groups {
                try Self.insertPassRows(db, group.map(\.1))
                try Self.replaceImages(db, of: group.map(\.0))
                try Self.countIssues(db, group.map { ($0.0.serialNumber, $0.0.templatePath) }, day: day, shard: shard)
            }
            for pass in passes {
                if let objectID = pass.googleObjectID {
                    try Self.linkGoogleObject(
                        db, GoogleObjectLink(serialNumber: pass.serialNumber, objectID: objectID),
                        template: pass.templatePath, record: try RecordCoding.encode(pass.record),
                        nowSeconds: nowSeconds)
                }
            }
            for group in distinct ? [links] : links.map({ [$0] }) {
                try Self.upsertLinks(db, group, nowSeconds: nowSeconds)
            }
        }
        changes?.passesChanged(passes.map(\.serialNumber))
    }

    /// Upserts passes given as `rows` (as `insertPasses` builds them; distinct serials, all with one modification
    /// time) in one statement, tags drawn in the given order. A serial the store holds gets the new version: a new
    /// tag, a later modification time, personalization undone.
    private static func insertPassRows(_ db: PGConnection, _ rows: [[PGParameter]]) throws {
        func column(_ index: Int) -> String { textArray(rows.map { $0[index] }) }
        try db.query(
            """
            INSERT INTO passes (\(passColumns))
            SELECT i.serial, i.pass_type, i.template, i.record, i.auth_token, nextval('pass_tag'), $6::bigint,
                i.voided, i.web_service_url, i.compatible_pass
            FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $7::boolean[], $8::text[],
                $9::boolean[]) WITH ORDINALITY
                AS i(serial, pass_type, template, record, auth_token, voided, web_service_url, compatible_pass, n)
            ORDER BY i.n
            ON CONFLICT (serial) DO UPDATE SET pass_type = excluded.pass_type,
                template = excluded.template, record = excluded.record, auth_token = excluded.auth_token,
                tag = excluded.tag, modified_at = greatest(excluded.modified_at, passes.modified_at + 1),
                voided = excluded.voided, web_service_url = excluded.web_service_url,
                compatible_pass = excluded.compatible_pass, personalized_at = NULL
            """,
            [
                column(0), column(1), column(2), column(3), column(4), rows[0][5], column(6), column(7), column(8),
            ])
    }

    package func pass(passType: String, serial: String) throws -> StoredPass? {
        guard let pass = try pass(serial: serial), pass.passTypeIdentifier == passType else { return nil }
        return pass
    }

    package func pass(serial: String) throws -> StoredPass? {
        try pool.withConnection { db in
            let result = try db.query("SELECT \(Self.storedPassColumns) FROM passes WHERE serial = $1", [serial])
            guard result.rowCount > 0 else { return nil }
            var pass = try Self.storedPass(result, row: 0)
            pass.images = try Self.selectImages(db, serial: serial)
            return pass
        }
    }

    package func passVersion(passType: String, serial: String) throws -> PassVersion? {
        let lookup = changes?.version(passType: passType, serial: serial) ?? .bypass
        if case .hit(let version) = lookup { return version }
        let version = try pool.withConnection { db -> PassVersion? in
            let result = try db.query(
                "SELECT auth_token, tag, modified_at FROM passes WHERE serial = $1 AND pass_type = $2",
                [serial, passType])
            guard result.rowCount > 0 else { return nil }
            return PassVersion(
                authenticationToken: result.string(0, 0), tag: result.int64(0, 1),
                modifiedAtSeconds: result.int64(0, 2))
        }
        if case .miss(let generation) = lookup, let version {
            changes?.storeVersion(version, passType: passType, serial: serial, generation: generation)
        }
        return version
    }

    @discardableResult
    package func unregister(device: String, passType: String, serial: String) throws -> RegistrationInfo? {
        defer { changes?.registrationsChanged(device: device) }
        let day = String(UTCDay(now()).number)
        return try pool.withConnection { db in
            // The CTEs see one snapshot: the device is deleted when no registration but this one is left (and
            // the removed row's push token is read from before that).
            let removed = try db.query(
                """
                WITH removed AS (
                    DELETE FROM registrations WHERE device = $1 AND pass_type = $2 AND serial = $3
                    RETURNING serial, created_at, tag
                ), device AS (
                    DELETE FROM devices WHERE device_library_id = $1 AND EXISTS (SELECT 1 FROM removed)
                    AND NOT EXISTS (
                        SELECT 1 FROM registrations
                        WHERE device = $1 AND NOT (pass_type = $2 AND serial = $3))
                )\(Self.unregistrationCounting)
                SELECT created_at, tag, (SELECT push_token FROM devices WHERE device_library_id = $1) FROM removed
                """, [device, passType, serial, day, Self.shard()])
            return removed.rowCount > 0 ? Self.registrationInfo(removed, row: 0, device: device) : nil
        }
    }

    package func updatedSerials(device: String, passType: String, since: Int64?) throws -> (
        serials: [String], lastUpdated: Int64
    )? {
        switch changes?.registrations(device: device, passType: passType) ?? .bypass {
        case .hit(let list):
            return Self.updated(list, since: since)
        case .miss(let generation):
            // The whole list (every tag), cached, then filtered: the next call with any `since` is a hit.
            let list = try registrations(device: device, passType: passType)
            changes?.storeRegistrations(list, device: device, passType: passType, generation: generation)
            return Self.updated(list, since: since)
        case .bypass:
            return try uncachedUpdatedSerials(device: device, passType: passType, since: since)
        }
    }

    private func uncachedUpdatedSerials(device: String, passType: String, since: Int64?) throws -> (
        serials: [String], lastUpdated: Int64
    )? {
        try pool.withConnection { db in
            let result = try db.query(
                """
                SELECT p.serial, p.tag FROM registrations r JOIN passes p ON p.serial = r.serial
                WHERE r.device = $1 AND r.pass_type = $2 AND p.pass_type = $2 AND p.tag > $3
                ORDER BY p.tag, p.serial
                """, [device, passType, String(since ?? Int64.min)])
            guard result.rowCount > 0 else { return nil }
            var serials: [String] = []
            var newest = Int64.min
            for row in 0..<result.rowCount {
                serials.append(result.string(row, 0))
                newest = max(newest, result.int64(row, 1))
            }
            return (serials, newest)
        }
    }

    package func updateRecord(
        serial: String, record: [String: String], images: [String: [UInt8]]?, voided: Bool?
    ) throws -> (pass: StoredPass, pushesQueued: Int) {
        let nowDate = now()
        defer { changes?.passesChanged([serial]) }
        return try pool.transaction { db in
            guard
                var (pass, queued) = try Self.writeVersion(
                    db, serial: serial, record: record, voided: voided, now: nowDate)
            else { throw StoreError.passNotFound(serial: serial) }
            if let images {
                try Self.replaceImages(db, serial: serial, images: images)
                pass.images = images
            } else {
                pass.images = try Self.selectImages(db, serial: serial)
            }
            return (pass, queued)
        }
    }

    /// One statement: the new record (and voided state, when given), tag and second, and one outbox row per
    /// registered device (except devices with a fresh unclaimed push of this pass type waiting: one push makes the
    /// phone fetch every change). Images are left to the caller. nil when no pass has the serial.
    static func writeVersion(
        _ db: PGConnection, serial: String, record: [String: String], voided: Bool?, now: Date
    ) throws -> (pass: StoredPass, pushesQueued: Int)? {
        // Planned on each call: how many rows it joins and queues swings with the pass (see `queryPlanned`).
        let result = try db.queryPlanned(
            """
            WITH pass AS (
                UPDATE passes SET record = $2, tag = nextval('pass_tag'),
                    modified_at = greatest($3, modified_at + 1), voided = coalesce($5::boolean, voided)
                WHERE serial = $1 RETURNING \(storedPassColumns)
            ), queued AS (
                INSERT INTO push_outbox (push_token, pass_type, serial, tag, attempts, due_at, claimed_until)
                SELECT d.push_token, r.pass_type, r.serial, pass.tag, 0, $4, 0
                FROM pass JOIN registrations r ON r.serial = pass.serial AND r.pass_type = pass.pass_type
                JOIN devices d ON d.device_library_id = r.device
                WHERE NOT EXISTS (
                    SELECT 1 FROM push_outbox o WHERE o.push_token = d.push_token AND o.pass_type = r.pass_type
                    AND o.attempts = 0 AND o.claimed_until <= $4)
                RETURNING 1
            )
            SELECT pass.*, (SELECT count(*) FROM queued) FROM pass
            """,
            [
                serial, try RecordCoding.encode(record), String(RecordCoding.seconds(now)),
                String(RecordCoding.milliseconds(now)), voided.map { $0 ? "true" : "false" },
            ])
        guard result.rowCount > 0 else { return nil }
        return (try storedPass(result, row: 0), result.int(0, 11))  // after the 11 columns of the pass
    }

    static func selectImages(_ db: PGConnection, serial: String) throws -> [String: [UInt8]] {
        let result = try db.query("SELECT path, bytes FROM pass_images WHERE serial = $1", [serial])
        var images: [String: [UInt8]] = [:]
        for row in 0..<result.rowCount { images[result.string(row, 0)] = result.bytes(row, 1) }
        return images
    }

    /// Replaces the stored images of `passes` (distinct serials) with theirs, in two statements (call inside a
    /// transaction).
    static func replaceImages(_ db: PGConnection, of passes: [StoredPass]) throws {
        try replaceImages(
            db, serials: passes.map(\.serialNumber),
            images: passes.flatMap { pass in pass.images.map { (pass.serialNumber, $0.key, $0.value) } })
    }

    /// Replaces the stored images of `serial` with `images` (path → bytes).
    static func replaceImages(_ db: PGConnection, serial: String, images: [String: [UInt8]]) throws {
        try replaceImages(db, serials: [serial], images: images.map { (serial, $0.key, $0.value) })
    }

    private static func replaceImages(
        _ db: PGConnection, serials: [String], images: [(serial: String, path: String, bytes: [UInt8])]
    ) throws {
        try db.query("DELETE FROM pass_images WHERE serial = ANY($1::text[])", [textArray(serials)])
        guard !images.isEmpty else { return }
        try db.query(
            "INSERT INTO pass_images (serial, path, bytes) SELECT * FROM unnest($1::text[], $2::text[], $3::bytea[])",
            [
                textArray(images.map(\.serial)), textArray(images.map(\.path)),
                textArray(images.map { hexBytea($0.bytes) }),
            ])
    }

    /// The text form of a `bytea` parameter.
    static func hexBytea(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = [92, 120]  // \x
        text.reserveCapacity(2 + bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    static func storedPass(_ result: PGResult, row: Int) throws -> StoredPass {
        let serial = result.string(row, 0)
        return StoredPass(
            serialNumber: serial, passTypeIdentifier: result.string(row, 1), templatePath: result.string(row, 2),
            record: try RecordCoding.decode(result.string(row, 3), serial: serial),
            authenticationToken: result.string(row, 4), tag: result.int64(row, 5),
            modifiedAt: Date(timeIntervalSince1970: TimeInterval(result.int64(row, 6))), voided: result.bool(row, 7),
            webServiceURL: result.optionalString(row, 8), compatiblePass: result.bool(row, 9),
            personalized: !result.isNull(row, 10))
    }
}
