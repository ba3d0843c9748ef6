import Foundation

/// One caller's registration in a group (`PostgresStore.register`); the leader sets `outcome` before waking it.
final class PendingRegistration: @unchecked Sendable {  // `outcome` written by the leader before the caller wakes
    let device: String
    let passType: String
    let serial: String
    let pushToken: String
    let tag: Int64
    var outcome: Result<RegistrationOutcome, any Error>?

    init(device: String, passType: String, serial: String, pushToken: String, tag: Int64) {
        self.device = device
        self.passType = passType
        self.serial = serial
        self.pushToken = pushToken
        self.tag = tag
    }
}

/// Registrations, group-committed: the registrations that arrive while one group is being written are written
/// together by the next, as one statement over arrays (one round trip, one commit, one counter row update per
/// template). Alone, a registration is written at once.
extension PostgresStore {
    /// Registrations one statement writes at most.
    static let registrationGroupLimit = 256

    /// The registration connection plans for key lookups only. The group's arrays are small and every table
    /// it touches has an index on the key; but a table of a new program is small too, and the planner would
    /// scan it whole for each group (cheaper than a dozen index lookups at a thousand rows) and keep that
    /// generic plan while the table grows.
    @Sendable static func setUpRegistrationConnection(_ db: PGConnection) throws {
        try db.execute("SET enable_seqscan = off")
    }

    package func register(device: String, passType: String, serial: String, pushToken: String, tag: Int64) throws
        -> RegistrationOutcome
    {
        defer { changes?.registrationsChanged(device: device) }
        let pending = PendingRegistration(
            device: device, passType: passType, serial: serial, pushToken: pushToken, tag: tag)
        registrationGroup.submit(pending) { group in writeRegistrations(group) }
        return try pending.outcome!.get()
    }

    /// Writes `group` and sets each outcome. A group whose statement fails is written again one registration at
    /// a time, so one bad registration fails alone (unless the database is away); a deadlock or serialization
    /// failure (another instance's group locked the same rows) is retried.
    func writeRegistrations(_ group: [PendingRegistration]) {  // internal: tests write a group of their choosing
        do {
            let created = try Self.retryingConflicts { try insertRegistrations(group) }
            Self.assign(created, to: group)
        } catch {
            // The database away (or a group of one): every registration has this answer, and trying each again
            // would only wait for the server once per registration.
            if group.count == 1 || Self.isUnavailable(error) {
                for registration in group { registration.outcome = .failure(error) }
                return
            }
            for registration in group {
                do {
                    let created = try Self.retryingConflicts { try insertRegistrations([registration]) }
                    Self.assign(created, to: [registration])
                } catch {
                    registration.outcome = .failure(error)
                }
            }
        }
    }

    private static func isUnavailable(_ error: any Error) -> Bool {
        if case StoreError.databaseUnavailable = error { return true }
        return false
    }

    /// The key of a registration row.
    private struct RegistrationKey: Hashable {
        var device: String
        var passType: String
        var serial: String
    }

    /// `.created` for the first registration of each key the statement inserted, `.alreadyRegistered` otherwise.
    private static func assign(_ created: Set<RegistrationKey>, to group: [PendingRegistration]) {
        var created = created
        for registration in group {
            let key = RegistrationKey(
                device: registration.device, passType: registration.passType, serial: registration.serial)
            registration.outcome = .success(created.remove(key) != nil ? .created : .alreadyRegistered)
        }
    }

    /// Runs `body` again (up to three attempts) when PostgreSQL ended it for a deadlock or a serialization failure.
    private static func retryingConflicts<T>(_ body: () throws -> T) throws -> T {
        var attempt = 1
        while true {
            do {
                return try body()
            } catch StoreError.postgres(_, _, _, let state)
                where (state == "40P01" || state == "40001") && attempt < 3
            {
                attempt += 1
            }
        }
    }

    /// One statement for a whole group: devices `$1`, pass types `$2`, serials `$3`, push tokens `$4`, the
    /// passes' tags `$7` (arrays of one element per registration), the second `$5`, the counter shard `$6`;
    /// returns the rows it inserted.
    ///
    /// A device's row is written only when its token changed (the newest token of the group wins), pending pushes
    /// follow the device to a new token, and each registration is inserted unless known. Rows are written in key
    /// order, and the install counters of the group's passes are locked in serial order before they change, so
    /// two instances writing groups at once cannot deadlock on them.
    static let registrationStatement = """
        WITH input AS (
            SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $7::bigint[]) WITH ORDINALITY
                AS i(device, pass_type, serial, push_token, tag, n)
        ), latest AS (
            -- ON CONFLICT DO UPDATE may change a row once per statement: one token per device.
            SELECT DISTINCT ON (device) device, push_token FROM input ORDER BY device, n DESC
        ), old AS (
            SELECT l.push_token, d.push_token AS old_token
            FROM latest l JOIN devices d ON d.device_library_id = l.device
            WHERE d.push_token <> l.push_token
        ), device AS (
            INSERT INTO devices (device_library_id, push_token, updated_at)
            SELECT device, push_token, $5::bigint FROM latest ORDER BY device
            ON CONFLICT (device_library_id) DO UPDATE SET push_token = excluded.push_token,
                updated_at = excluded.updated_at
            WHERE devices.push_token <> excluded.push_token
        ), moved AS (
            UPDATE push_outbox o SET push_token = old.push_token FROM old WHERE o.push_token = old.old_token
        ), registration AS (
            INSERT INTO registrations (device, pass_type, serial, created_at, tag)
            SELECT DISTINCT ON (device, pass_type, serial) device, pass_type, serial, $5::bigint, tag FROM input
            ORDER BY device, pass_type, serial, n
            ON CONFLICT DO NOTHING RETURNING device, pass_type, serial
        )\(PostgresStore.registrationCounting)
        SELECT device, pass_type, serial FROM registration
        """

    /// Writes one group (`registrationStatement`); returns the keys it inserted.
    private func insertRegistrations(_ group: [PendingRegistration]) throws -> Set<RegistrationKey> {
        let nowSeconds = String(RecordCoding.seconds(now()))
        let result = try registrationPool.withConnection { db in
            try db.query(
                Self.registrationStatement,
                [
                    Self.textArray(group.map(\.device)), Self.textArray(group.map(\.passType)),
                    Self.textArray(group.map(\.serial)), Self.textArray(group.map(\.pushToken)), nowSeconds,
                    Self.shard(), Self.textArray(group.map { String($0.tag) }),
                ])
        }
        var created = Set<RegistrationKey>()
        for row in 0..<result.rowCount {
            created.insert(
                RegistrationKey(
                    device: result.string(row, 0), passType: result.string(row, 1), serial: result.string(row, 2)))
        }
        return created
    }
}
