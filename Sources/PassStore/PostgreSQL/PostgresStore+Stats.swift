import Foundation

/// Install figures (`InstallStats.swift`), written by the same statement or transaction as the change they count.
///
/// The tables are those of the SQLite store (see `SQLiteStore+Stats.swift`). Concurrent instances stay exact
/// because every transition is read from the row it updates (`UPDATE … RETURNING` waits for a concurrent
/// writer's row lock and sees its result). The day counters are split into `shards` rows per template and day,
/// picked at random and summed when read, so concurrent registrations of one template do not queue on one row
/// lock until each other's commits.
extension PostgresStore {
    /// Rows each template and day's counters are spread over.
    static let shards = 16

    /// Migration 5: the tables and their back-fill (the same rules as the SQLite migration; the template name is
    /// `InstallStats.templateName` spelled in SQL).
    static let installStatsMigration = """
        CREATE TABLE install_passes (
            serial TEXT PRIMARY KEY,
            template TEXT NOT NULL,
            devices INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE install_devices (
            template TEXT NOT NULL,
            device TEXT NOT NULL,
            passes INTEGER NOT NULL,
            PRIMARY KEY (template, device)
        );
        CREATE TABLE install_days (
            template TEXT NOT NULL,
            day BIGINT NOT NULL,
            shard INTEGER NOT NULL DEFAULT 0,
            issued INTEGER NOT NULL DEFAULT 0,
            added INTEGER NOT NULL DEFAULT 0,
            removed INTEGER NOT NULL DEFAULT 0,
            devices_change INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (template, day, shard)
        );
        INSERT INTO install_passes (serial, template, devices)
        SELECT serial, coalesce(nullif(name, ''), template),
            (SELECT count(*) FROM registrations r WHERE r.serial = named.serial)
        FROM (
            SELECT serial, template, CASE
                WHEN template LIKE 'passmint-template:%'
                    THEN regexp_replace(substr(template, 19), '@[0-9a-f]*$', '')
                ELSE regexp_replace(regexp_replace(rtrim(template, '/'), '^.*/', ''), '[.](pkpasstemplate|zip)$', '', 'i')
                END AS name
            FROM passes) AS named;
        \(InstallStats.backfillCountersSQL)
        """

    /// The common tail of the day counter upserts.
    private static let addToDay = """
        ON CONFLICT (template, day, shard) DO UPDATE SET issued = install_days.issued + excluded.issued,
            added = install_days.added + excluded.added, removed = install_days.removed + excluded.removed,
            devices_change = install_days.devices_change + excluded.devices_change
        """

    /// CTEs appended to the registration statement (`PostgresStore+Registrations.swift`), after `registration`
    /// (the rows it inserted): the group's serials `$3`, the second `$5`, the counter shard `$6`. Counts per pass
    /// and per device of the group, so a pass that gains several devices in one group adds to its counter once,
    /// and it counts as added when it had none before (`devices = gained`).
    static let registrationCounting = """
        , locked AS (
            -- Serial order, before any counter changes: two groups sharing passes lock them in the same order.
            -- `= ANY` of the array parameter: index lookups whatever the table's size.
            SELECT serial FROM install_passes WHERE serial = ANY($3::text[]) ORDER BY serial FOR UPDATE
        ), gained AS (
            SELECT serial, count(*) AS devices FROM registration GROUP BY serial
        ), install_pass AS (
            UPDATE install_passes p SET devices = p.devices + g.devices FROM gained g
            WHERE p.serial = ANY($3::text[]) AND p.serial = g.serial AND (SELECT count(*) FROM locked) > 0
            RETURNING p.serial, p.template, p.devices, g.devices AS gained
        ), gained_by_device AS (
            SELECT p.template, r.device, count(*) AS passes
            FROM registration r JOIN install_pass p ON p.serial = r.serial GROUP BY p.template, r.device
        ), install_device AS (
            INSERT INTO install_devices (template, device, passes)
            SELECT template, device, passes FROM gained_by_device ORDER BY template, device
            ON CONFLICT (template, device) DO UPDATE SET passes = install_devices.passes + excluded.passes
            RETURNING template, device, passes
        ), install_day AS (
            INSERT INTO install_days (template, day, shard, added, devices_change)
            SELECT template, $5::bigint / 86400, $6::integer, sum(added), sum(change) FROM (
                SELECT template, (devices = gained)::integer AS added, 0 AS change FROM install_pass
                UNION ALL
                SELECT d.template, 0, (d.passes = g.passes)::integer
                FROM install_device d JOIN gained_by_device g ON g.template = d.template AND g.device = d.device
            ) AS events
            GROUP BY template HAVING sum(added) > 0 OR sum(change) > 0 ORDER BY template
            \(addToDay)
        )
        """

    /// CTEs appended to `unregister`'s statement, after `removed` (which returns the deleted row's `serial`):
    /// device `$1`, the day `$4`, the counter shard `$5`.
    static let unregistrationCounting = """
        , install_pass AS (
            UPDATE install_passes SET devices = devices - 1 WHERE serial IN (SELECT serial FROM removed)
            RETURNING template, devices
        ), install_device AS (
            INSERT INTO install_devices (template, device, passes) SELECT template, $1, -1 FROM install_pass
            ON CONFLICT (template, device) DO UPDATE SET passes = install_devices.passes - 1
            RETURNING passes
        ), install_day AS (
            INSERT INTO install_days (template, day, shard, removed, devices_change)
            SELECT p.template, $4::bigint, $5::integer, (p.devices = 0)::integer,
                CASE WHEN d.passes = 0 THEN -1 ELSE 0 END
            FROM install_pass p CROSS JOIN install_device d
            WHERE p.devices = 0 OR d.passes = 0
            \(addToDay)
        )
        """

    /// A random counter shard, as a statement parameter.
    static func shard() -> String { String(Int.random(in: 0..<shards)) }

    /// Counts each of `passes` (distinct serials) as issued unless the store has seen its serial before, in one
    /// statement inside the insert's transaction: each template's day counter gains the number of its new serials.
    /// `shard`: one per transaction (`shard()`), never one per pass: two transactions that each locked counter
    /// rows of several shards in random order could wait for each other (a deadlock PostgreSQL ends by failing
    /// one of them, e.g. one of two sharded batches).
    static func countIssues(
        _ db: PGConnection, _ passes: [(serial: String, template: String)], day: Int64, shard: String
    )
        throws
    {
        // A window's passes share one or a few templates: each name is worked out once.
        var names: [String: String] = [:]
        let templates = passes.map { pass in
            if let name = names[pass.template] { return name }
            let name = InstallStats.templateName(pass.template)
            names[pass.template] = name
            return name
        }
        try db.query(
            """
            WITH new AS (
                INSERT INTO install_passes (serial, template, devices)
                SELECT serial, template, 0 FROM unnest($1::text[], $2::text[]) AS i(serial, template)
                ON CONFLICT (serial) DO NOTHING RETURNING template
            )
            INSERT INTO install_days (template, day, shard, issued)
            SELECT template, $3::bigint, $4::integer, count(*) FROM new GROUP BY template
            \(addToDay)
            """,
            [
                textArray(passes.map(\.serial)), textArray(templates),
                String(day), shard,
            ])
    }

    /// Deletes the registrations of the devices holding `pushToken` (a dead token) and counts them, in one
    /// statement inside the caller's transaction: a concurrent unregistration of the same row counts it once.
    static func deleteDeadTokenRegistrations(_ db: PGConnection, pushToken: String, day: Int64) throws {
        try db.query(
            """
            WITH gone AS (
                DELETE FROM registrations WHERE device IN
                    (SELECT device_library_id FROM devices WHERE push_token = $1)
                RETURNING device, serial
            ), per_pass AS (
                UPDATE install_passes p SET devices = p.devices - g.n
                FROM (SELECT serial, count(*) AS n FROM gone GROUP BY serial) AS g
                WHERE p.serial = g.serial RETURNING p.template, p.devices
            ), per_device AS (
                INSERT INTO install_devices (template, device, passes)
                SELECT ip.template, gone.device, -count(*) FROM gone JOIN install_passes ip ON ip.serial = gone.serial
                GROUP BY ip.template, gone.device
                ON CONFLICT (template, device) DO UPDATE SET passes = install_devices.passes + excluded.passes
                RETURNING template, passes
            ), events AS (
                SELECT template, (devices = 0)::integer AS removed, 0 AS change FROM per_pass
                UNION ALL
                SELECT template, 0, CASE WHEN passes = 0 THEN -1 ELSE 0 END FROM per_device
            )
            INSERT INTO install_days (template, day, shard, removed, devices_change)
            SELECT template, $2::bigint, $3::integer, sum(removed), sum(change) FROM events GROUP BY template
            \(addToDay)
            """, [pushToken, String(day), shard()])
    }

    package func installDays(_ query: InstallStatsQuery) throws -> [InstallDay] {
        try pool.withConnection { db in
            // The running sum covers every earlier day, so a range that starts late still gets the right count.
            let result = try db.query(
                """
                SELECT template, day, issued, added, removed, active, google_saved, google_deleted, google_active,
                    google_silent FROM (
                    SELECT template, day, sum(issued) AS issued, sum(added) AS added, sum(removed) AS removed,
                        sum(sum(devices_change)) OVER (PARTITION BY template ORDER BY day) AS active,
                        sum(google_saved) AS google_saved, sum(google_deleted) AS google_deleted,
                        sum(google_silent) AS google_silent,
                        sum(sum(google_change)) OVER (PARTITION BY template ORDER BY day) AS google_active
                    FROM install_days WHERE ($3::text IS NULL OR template = $3::text) AND day <= $2::bigint
                    GROUP BY template, day) AS days
                WHERE day >= $1::bigint ORDER BY template COLLATE "C", day
                """,
                [String(query.from?.number ?? Int64.min), String(query.to?.number ?? Int64.max), query.template])
            return (0..<result.rowCount).map { row in
                InstallDay(
                    template: result.string(row, 0), day: UTCDay(number: result.int64(row, 1)),
                    issued: result.int(row, 2), added: result.int(row, 3), removed: result.int(row, 4),
                    activeDevices: result.int(row, 5),
                    google: GoogleInstallFigures(
                        saved: result.int(row, 6), deleted: result.int(row, 7), active: result.int(row, 8),
                        silentUpdates: result.int(row, 9)))
            }
        }
    }

    package func installTotals() throws -> [InstallTotals] {
        try pool.withConnection { db in
            let result = try db.execute(
                """
                SELECT template, sum(issued), sum(added), sum(removed), sum(devices_change), sum(google_saved),
                    sum(google_deleted), sum(google_change), sum(google_silent) FROM install_days
                GROUP BY template ORDER BY template COLLATE "C"
                """)
            return (0..<result.rowCount).map { row in
                InstallTotals(
                    template: result.string(row, 0), issued: result.int(row, 1), added: result.int(row, 2),
                    removed: result.int(row, 3), activeDevices: result.int(row, 4),
                    google: GoogleInstallFigures(
                        saved: result.int(row, 5), deleted: result.int(row, 6), active: result.int(row, 7),
                        silentUpdates: result.int(row, 8)))
            }
        }
    }
}
