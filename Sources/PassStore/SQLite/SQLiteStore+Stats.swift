import Foundation

/// Install figures (`InstallStats.swift`): counters written by the same transaction as the change they count.
///
/// `install_passes` holds each pass's template name and its number of registrations, `install_devices` each
/// device's number of registrations per template; an event is a transition of one of them (0 → 1, 1 → 0),
/// added to `install_days`. Active devices at the end of a day are the sum of the `devices_change` of that day
/// and every earlier one. Exact by construction: the writer lock serializes every change.
///
/// A new registration row is counted by the `install_registered` trigger, on the day of its `created_at` (the
/// store's clock), inside register's own INSERT; removals by the hooks below, called with the store's clock by
/// `unregister` and `dropPush` (a deleted row carries no time of the deletion).
extension SQLiteStore {
    /// Migration 5. The back-fill puts what the store already holds on the days it can tell: a pass on the day
    /// of its last version, a pass's first device and each device's first pass of a template on the day of the
    /// registration; removals before the migration are not known. The template name is
    /// `InstallStats.templateName` spelled in SQL.
    static let installStatsMigration = """
        CREATE TABLE install_passes (
            serial TEXT PRIMARY KEY,
            template TEXT NOT NULL,
            devices INTEGER NOT NULL DEFAULT 0
        ) WITHOUT ROWID;
        CREATE TABLE install_devices (
            template TEXT NOT NULL,
            device TEXT NOT NULL,
            passes INTEGER NOT NULL,
            PRIMARY KEY (template, device)
        ) WITHOUT ROWID;
        CREATE TABLE install_days (
            template TEXT NOT NULL,
            day INTEGER NOT NULL,
            issued INTEGER NOT NULL DEFAULT 0,
            added INTEGER NOT NULL DEFAULT 0,
            removed INTEGER NOT NULL DEFAULT 0,
            devices_change INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (template, day)
        ) WITHOUT ROWID;
        INSERT INTO install_passes (serial, template, devices)
        WITH trimmed AS (SELECT serial, template, rtrim(template, '/') AS t FROM passes),
        named AS (
            SELECT serial, template, CASE
                WHEN substr(t, 1, 18) = 'passmint-template:'
                    THEN rtrim(rtrim(substr(t, 19), '0123456789abcdef'), '@')
                ELSE replace(t, rtrim(t, replace(t, '/', '')), '') END AS n
            FROM trimmed),
        stripped AS (
            SELECT serial, template, CASE
                WHEN substr(template, 1, 18) = 'passmint-template:' THEN n
                WHEN lower(n) LIKE '%.pkpasstemplate' THEN substr(n, 1, length(n) - 15)
                WHEN lower(n) LIKE '%.zip' THEN substr(n, 1, length(n) - 4)
                ELSE n END AS name
            FROM named)
        SELECT serial, coalesce(nullif(name, ''), template),
            (SELECT count(*) FROM registrations r WHERE r.serial = stripped.serial)
        FROM stripped;
        \(InstallStats.backfillCountersSQL)
        CREATE TRIGGER install_registered AFTER INSERT ON registrations BEGIN
        \(registeredTriggerBody)
        END;
        """

    /// What the trigger on a new registration row does, on its `created_at` day: inside SQLite, in the insert's
    /// statement, so the hot register path pays no extra statement calls (see the register benchmark in
    /// `InstallStatsTests`).
    static let registeredTriggerBody = """
            UPDATE install_passes SET devices = devices + 1 WHERE serial = NEW.serial;
            INSERT INTO install_devices (template, device, passes)
            SELECT template, NEW.device, 1 FROM install_passes WHERE serial = NEW.serial
            ON CONFLICT (template, device) DO UPDATE SET passes = passes + 1;
            INSERT INTO install_days (template, day, issued, added, removed, devices_change)
            SELECT p.template, NEW.created_at / 86400, 0, p.devices = 1, 0, d.passes = 1
            FROM install_passes p JOIN install_devices d ON d.template = p.template AND d.device = NEW.device
            WHERE p.serial = NEW.serial AND (p.devices = 1 OR d.passes = 1)
            ON CONFLICT (template, day) DO UPDATE SET added = added + excluded.added,
                devices_change = devices_change + excluded.devices_change;
        """

    /// Records `serial` as issued unless the store has seen it before (call in the insert's transaction); returns
    /// whether it was new, to be counted on its day with `countIssues` once per write rather than once per pass.
    /// - Parameter name: the template's name in the figures (`InstallStats.templateName`), worked out once per
    ///   template by the caller: a batch stores thousands of passes of one template per transaction.
    static func recordIssue(_ db: SQLiteConnection, serial: String, name: String) throws -> Bool {
        try db.withStatement(
            "INSERT INTO install_passes (serial, template, devices) VALUES (?1, ?2, 0) ON CONFLICT (serial) DO NOTHING"
        ) { s in
            try s.bind(1, serial)
            try s.bind(2, name)
            try s.run()
            return db.changes == 1
        }
    }

    /// Adds `count` newly issued passes of template `name` to `day`.
    static func countIssues(_ db: SQLiteConnection, name: String, day: Int64, count: Int) throws {
        if count > 0 { try addToDay(db, template: name, day: day, issued: count) }
    }

    /// Counts a registration row just deleted (call in its transaction).
    static func countUnregistration(_ db: SQLiteConnection, device: String, serial: String, day: Int64) throws {
        try countChange(db, device: device, serial: serial, day: day, by: -1)
    }

    /// Counts the registrations of the devices holding `pushToken`, which the caller deletes next in the same
    /// transaction (a dead token).
    static func countDeadTokenRegistrations(_ db: SQLiteConnection, pushToken: String, day: Int64) throws {
        let doomed = try db.withStatement(
            """
            SELECT r.device, r.serial FROM registrations r JOIN devices d ON d.device_library_id = r.device
            WHERE d.push_token = ?1
            """
        ) { s in
            try s.bind(1, pushToken)
            var rows: [(device: String, serial: String)] = []
            while try s.step() { rows.append((s.string(0), s.string(1))) }
            return rows
        }
        for row in doomed { try countUnregistration(db, device: row.device, serial: row.serial, day: day) }
    }

    private static func countChange(
        _ db: SQLiteConnection, device: String, serial: String, day: Int64, by step: Int
    ) throws {
        let pass: (template: String, devices: Int)? = try db.withStatement(
            "UPDATE install_passes SET devices = devices + ?2 WHERE serial = ?1 RETURNING template, devices"
        ) { s in
            try s.bind(1, serial)
            try s.bind(2, step)
            return try s.step() ? (s.string(0), s.int(1)) : nil
        }
        // A registration for a serial the store never issued has no template to count under.
        guard let pass else { return }
        let passes = try db.withStatement(
            """
            INSERT INTO install_devices (template, device, passes) VALUES (?1, ?2, ?3)
            ON CONFLICT (template, device) DO UPDATE SET passes = passes + excluded.passes RETURNING passes
            """
        ) { s in
            try s.bind(1, pass.template)
            try s.bind(2, device)
            try s.bind(3, step)
            return try s.step() ? s.int(0) : 0
        }
        // Only a transition is an event: a pass's first device or last one, a device's first pass or last one.
        let passEvent = step > 0 ? pass.devices == 1 : pass.devices == 0
        let deviceEvent = step > 0 ? passes == 1 : passes == 0
        guard passEvent || deviceEvent else { return }
        try addToDay(
            db, template: pass.template, day: day, added: step > 0 && passEvent ? 1 : 0,
            removed: step < 0 && passEvent ? 1 : 0, devicesChange: deviceEvent ? step : 0)
    }

    private static func addToDay(
        _ db: SQLiteConnection, template: String, day: Int64, issued: Int = 0, added: Int = 0, removed: Int = 0,
        devicesChange: Int = 0
    ) throws {
        try db.withStatement(
            """
            INSERT INTO install_days (template, day, issued, added, removed, devices_change)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            ON CONFLICT (template, day) DO UPDATE SET issued = issued + excluded.issued,
                added = added + excluded.added, removed = removed + excluded.removed,
                devices_change = devices_change + excluded.devices_change
            """
        ) { s in
            try s.bind(1, template)
            try s.bind(2, day)
            try s.bind(3, issued)
            try s.bind(4, added)
            try s.bind(5, removed)
            try s.bind(6, devicesChange)
            try s.run()
        }
    }

    package func installDays(_ query: InstallStatsQuery) throws -> [InstallDay] {
        try pool.withConnection { db in
            // The running sum covers every earlier day, so a range that starts late still gets the right count.
            try db.withStatement(
                """
                SELECT template, day, issued, added, removed, active, google_saved, google_deleted, google_active,
                    google_silent FROM (
                    SELECT template, day, issued, added, removed,
                        sum(devices_change) OVER (PARTITION BY template ORDER BY day) AS active,
                        google_saved, google_deleted, google_silent,
                        sum(google_change) OVER (PARTITION BY template ORDER BY day) AS google_active
                    FROM install_days WHERE (?3 IS NULL OR template = ?3) AND day <= ?2)
                WHERE day >= ?1 ORDER BY template, day
                """
            ) { s in
                try s.bind(1, query.from?.number ?? Int64.min)
                try s.bind(2, query.to?.number ?? Int64.max)
                try s.bind(3, query.template)
                var days: [InstallDay] = []
                while try s.step() {
                    days.append(
                        InstallDay(
                            template: s.string(0), day: UTCDay(number: s.int64(1)), issued: s.int(2), added: s.int(3),
                            removed: s.int(4), activeDevices: s.int(5),
                            google: GoogleInstallFigures(
                                saved: s.int(6), deleted: s.int(7), active: s.int(8), silentUpdates: s.int(9))))
                }
                return days
            }
        }
    }

    package func installTotals() throws -> [InstallTotals] {
        try pool.withConnection { db in
            try db.withStatement(
                """
                SELECT template, sum(issued), sum(added), sum(removed), sum(devices_change), sum(google_saved),
                    sum(google_deleted), sum(google_change), sum(google_silent) FROM install_days
                GROUP BY template ORDER BY template
                """
            ) { s in
                var totals: [InstallTotals] = []
                while try s.step() {
                    totals.append(
                        InstallTotals(
                            template: s.string(0), issued: s.int(1), added: s.int(2), removed: s.int(3),
                            activeDevices: s.int(4),
                            google: GoogleInstallFigures(
                                saved: s.int(5), deleted: s.int(6), active: s.int(7), silentUpdates: s.int(8))))
                }
                return totals
            }
        }
    }
}
