import Foundation

/// The default `PassStore`: one SQLite file in WAL mode, shareable with a second process
/// (`passmint update --db` while `passmint serve` runs).
package final class SQLiteStore: PassStore, PushOutbox, PassLinkStore {
    let pool: SQLiteConnectionPool
    let now: @Sendable () -> Date
    /// Which passes' events need trimming (`recordEvents`).
    let eventLedger = EventTrimLedger()

    /// Store files that other users can read, found when the store was opened (see `StoreFileExposure`).
    package let exposures: [StoreFileExposure]

    /// Opens (creating when missing, with mode 0600) the store at `path` and brings its schema up to date.
    /// - Parameters:
    ///   - busyTimeoutMilliseconds: how long a writer waits for another writer (another process included).
    ///   - backgroundCheckpoints: copy the write-ahead log into the file on a thread of its own rather than
    ///     inside a write (for `serve`: no request waits for a checkpoint's fsync).
    ///   - now: the clock; tests pass a fixed one.
    /// - Throws: `StoreError.database` when the file cannot be opened or is not a SQLite database.
    package init(
        path: String, busyTimeoutMilliseconds: Int32 = 10_000, backgroundCheckpoints: Bool = false,
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        SQLiteFileMode.createIfMissing(path)
        self.exposures = SQLiteFileMode.exposures(path)
        self.pool = SQLiteConnectionPool(
            path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, backgroundCheckpoints: backgroundCheckpoints)
        self.now = now
        try pool.withWriter { try SQLiteSchema.migrate($0) }
    }

    /// The database file.
    package var path: String { pool.path }

    /// The columns an insert writes.
    static let passColumns =
        "serial, pass_type, template, record, auth_token, tag, modified_at, voided, web_service_url, compatible_pass"
    /// The columns a read maps (`selectPass`): the inserted ones and what the store sets itself.
    static let storedPassColumns = passColumns + ", personalized_at"

    package func insertPasses(_ passes: [StoredPass]) throws { try insertPasses(passes, links: []) }

    package func insertPasses(_ passes: [StoredPass], links: [PassLinkGrant]) throws {
        guard !passes.isEmpty else { return }
        let nowSeconds = Self.seconds(now())
        let day = UTCDay(seconds: nowSeconds).number
        var names: [String: String] = [:]
        let records = RecordCoding.encode(passes.map(\.record))
        try pool.write { db in
            let tags = try Self.nextTags(db, count: passes.count)
            var issued: [String: Int] = [:]
            for (index, (pass, tag)) in zip(passes, tags).enumerated() {
                let record = records[index]
                try db.withStatement(
                    """
                    INSERT INTO passes (\(Self.passColumns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
                    ON CONFLICT (serial) DO UPDATE SET pass_type = excluded.pass_type,
                        template = excluded.template, record = excluded.record, auth_token = excluded.auth_token,
                        tag = excluded.tag, modified_at = max(excluded.modified_at, passes.modified_at + 1),
                        voided = excluded.voided, web_service_url = excluded.web_service_url,
                        compatible_pass = excluded.compatible_pass, personalized_at = NULL
                    """
                ) { s in
                    try s.bind(1, pass.serialNumber)
                    try s.bind(2, pass.passTypeIdentifier)
                    try s.bind(3, pass.templatePath)
                    try s.bind(4, record)
                    try s.bind(5, pass.authenticationToken)
                    try s.bind(6, tag)
                    try s.bind(7, nowSeconds)
                    try s.bind(8, pass.voided ? 1 : 0)
                    try s.bind(9, pass.webServiceURL)
                    try s.bind(10, pass.compatiblePass ? 1 : 0)
                    try s.run()
                }
                try Self.replaceImages(db, serial: pass.serialNumber, images: pass.images)
                let name = names[pass.templatePath] ?? InstallStats.templateName(pass.templatePath)
                names[pass.templatePath] = name
                if try Self.recordIssue(db, serial: pass.serialNumber, name: name) { issued[name, default: 0] += 1 }
                if let objectID = pass.googleObjectID {
                    try Self.linkGoogleObject(
                        db, GoogleObjectLink(serialNumber: pass.serialNumber, objectID: objectID),
                        template: pass.templatePath, record: record, nowSeconds: nowSeconds)
                }
            }
            for (name, count) in issued.sorted(by: { $0.key < $1.key }) {
                try Self.countIssues(db, name: name, day: day, count: count)
            }
            for link in links { try Self.upsertLink(db, link, nowSeconds: nowSeconds) }
        }
    }

    package func pass(passType: String, serial: String) throws -> StoredPass? {
        try pool.withConnection { db in
            guard let pass = try Self.selectPass(db, serial: serial), pass.passTypeIdentifier == passType else {
                return nil
            }
            return pass
        }
    }

    package func pass(serial: String) throws -> StoredPass? {
        try pool.withConnection { db in try Self.selectPass(db, serial: serial) }
    }

    package func passVersion(passType: String, serial: String) throws -> PassVersion? {
        try pool.withConnection { db in
            try db.withStatement("SELECT auth_token, tag, modified_at FROM passes WHERE serial = ?1 AND pass_type = ?2")
            {
                s in
                try s.bind(1, serial)
                try s.bind(2, passType)
                guard try s.step() else { return nil }
                return PassVersion(authenticationToken: s.string(0), tag: s.int64(1), modifiedAtSeconds: s.int64(2))
            }
        }
    }

    package func register(device: String, passType: String, serial: String, pushToken: String, tag: Int64) throws
        -> RegistrationOutcome
    {
        let nowSeconds = Self.seconds(now())
        return try pool.write { db in
            let oldToken: String? = try db.withStatement(
                "SELECT push_token FROM devices WHERE device_library_id = ?1"
            ) { s in
                try s.bind(1, device)
                return try s.step() ? s.string(0) : nil
            }
            if oldToken != pushToken {
                try db.withStatement(
                    """
                    INSERT INTO devices (device_library_id, push_token, updated_at) VALUES (?1, ?2, ?3)
                    ON CONFLICT (device_library_id) DO UPDATE SET push_token = excluded.push_token,
                        updated_at = excluded.updated_at
                    """
                ) { s in
                    try s.bind(1, device)
                    try s.bind(2, pushToken)
                    try s.bind(3, nowSeconds)
                    try s.run()
                }
            }
            if let oldToken, oldToken != pushToken {
                // Pending pushes follow the device to its new token.
                try db.withStatement("UPDATE push_outbox SET push_token = ?2 WHERE push_token = ?1") { s in
                    try s.bind(1, oldToken)
                    try s.bind(2, pushToken)
                    try s.run()
                }
            }
            return try db.withStatement(
                """
                INSERT OR IGNORE INTO registrations (device, pass_type, serial, created_at, tag)
                VALUES (?1, ?2, ?3, ?4, ?5)
                """
            ) { s in
                try s.bind(1, device)
                try s.bind(2, passType)
                try s.bind(3, serial)
                try s.bind(4, nowSeconds)
                try s.bind(5, tag)
                try s.run()
                return db.changes == 1 ? .created : .alreadyRegistered
            }
        }
    }

    @discardableResult
    package func unregister(device: String, passType: String, serial: String) throws -> RegistrationInfo? {
        let day = UTCDay(now()).number
        return try pool.write { db in
            let removed = try db.withStatement(
                """
                DELETE FROM registrations WHERE device = ?1 AND pass_type = ?2 AND serial = ?3
                RETURNING created_at, tag, (SELECT push_token FROM devices WHERE device_library_id = ?1)
                """
            ) { s in
                try s.bind(1, device)
                try s.bind(2, passType)
                try s.bind(3, serial)
                return try s.step() ? Self.registrationInfo(s, device: device) : nil
            }
            if removed != nil { try Self.countUnregistration(db, device: device, serial: serial, day: day) }
            try db.withStatement(
                """
                DELETE FROM devices WHERE device_library_id = ?1
                AND NOT EXISTS (SELECT 1 FROM registrations WHERE device = ?1)
                """
            ) { s in
                try s.bind(1, device)
                try s.run()
            }
            return removed
        }
    }

    package func updatedSerials(device: String, passType: String, since: Int64?) throws -> (
        serials: [String], lastUpdated: Int64
    )? {
        try pool.withConnection { db in
            try db.withStatement(
                """
                SELECT p.serial, p.tag FROM registrations r JOIN passes p ON p.serial = r.serial
                WHERE r.device = ?1 AND r.pass_type = ?2 AND p.pass_type = ?2 AND p.tag > ?3
                ORDER BY p.tag, p.serial
                """
            ) { s in
                try s.bind(1, device)
                try s.bind(2, passType)
                try s.bind(3, since ?? Int64.min)
                var serials: [String] = []
                var newest = Int64.min
                while try s.step() {
                    serials.append(s.string(0))
                    newest = max(newest, s.int64(1))
                }
                return serials.isEmpty ? nil : (serials, newest)
            }
        }
    }

    package func updateRecord(
        serial: String, record: [String: String], images: [String: [UInt8]]?, voided: Bool?
    ) throws -> (pass: StoredPass, pushesQueued: Int) {
        let nowDate = now()
        return try pool.write { db in
            guard var pass = try Self.selectPass(db, serial: serial) else {
                throw StoreError.passNotFound(serial: serial)
            }
            pass.record = record
            if let voided { pass.voided = voided }
            if let images { pass.images = images }
            let queued = try Self.writeVersion(db, &pass, replacingImages: images != nil, now: nowDate)
            return (pass, queued)
        }
    }

    /// Stores `pass`'s record, voided state (and its images when `replacingImages`) under a new tag and a later
    /// modification second, set into `pass`, and queues its pushes (call inside a write transaction).
    /// - Returns: the outbox rows queued.
    static func writeVersion(_ db: SQLiteConnection, _ pass: inout StoredPass, replacingImages: Bool, now: Date)
        throws -> Int
    {
        pass.tag = try nextTag(db)
        let modified = max(seconds(now), seconds(pass.modifiedAt) + 1)
        pass.modifiedAt = Date(timeIntervalSince1970: TimeInterval(modified))
        let encoded = try encode(pass.record)
        try db.withStatement(
            "UPDATE passes SET record = ?2, tag = ?3, modified_at = ?4, voided = ?5 WHERE serial = ?1"
        ) { s in
            try s.bind(1, pass.serialNumber)
            try s.bind(2, encoded)
            try s.bind(3, pass.tag)
            try s.bind(4, modified)
            try s.bind(5, pass.voided ? 1 : 0)
            try s.run()
        }
        if replacingImages { try replaceImages(db, serial: pass.serialNumber, images: pass.images) }
        return try queuePushes(
            db, serial: pass.serialNumber, passType: pass.passTypeIdentifier, tag: pass.tag,
            nowMilliseconds: milliseconds(now))
    }

    /// One outbox row per device registered for the pass, except devices that already have a fresh unclaimed
    /// push for this pass type waiting: one push makes the phone fetch every change, so more would be noise.
    /// (Also used by the bulk engine, once per changed pass of a chunk.)
    static func queuePushes(
        _ db: SQLiteConnection, serial: String, passType: String, tag: Int64, nowMilliseconds: Int64
    ) throws -> Int {
        try db.withStatement(
            """
            INSERT INTO push_outbox (push_token, pass_type, serial, tag, attempts, due_at, claimed_until)
            SELECT d.push_token, r.pass_type, r.serial, ?3, 0, ?4, 0
            FROM registrations r JOIN devices d ON d.device_library_id = r.device
            WHERE r.serial = ?1 AND r.pass_type = ?2 AND NOT EXISTS (
                SELECT 1 FROM push_outbox o WHERE o.push_token = d.push_token AND o.pass_type = r.pass_type
                AND o.attempts = 0 AND o.claimed_until <= ?4)
            """
        ) { s in
            try s.bind(1, serial)
            try s.bind(2, passType)
            try s.bind(3, tag)
            try s.bind(4, nowMilliseconds)
            try s.run()
            return db.changes
        }
    }
}
