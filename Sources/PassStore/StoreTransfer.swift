import Foundation

/// Copies an embedded SQLite store into an empty PostgreSQL store, every row as it is: passes with their
/// tokens, tags and modification seconds (phones keep their `passesUpdatedSince` and `If-Modified-Since`),
/// devices, registrations, pending pushes, push history, logs, personalizations, distribution links (their
/// hashes: every link keeps working) and template versions. One PostgreSQL
/// transaction: a failed copy leaves the database empty; the SQLite file is only read.
package enum StoreTransfer {
    /// What was copied, per table.
    package struct Counts: Sendable, Equatable, CustomStringConvertible {
        package var rows: [(table: String, count: Int)]

        package static func == (a: Counts, b: Counts) -> Bool {
            a.rows.map(\.table) == b.rows.map(\.table) && a.rows.map(\.count) == b.rows.map(\.count)
        }

        package var description: String { rows.map { "\($0.count) \($0.table)" }.joined(separator: ", ") }
    }

    /// The tables and the columns both stores have, in an order that keeps references intact.
    static let tables: [(name: String, columns: [String], identity: Bool)] = [
        ("passes", SQLiteStore.storedPassColumns.components(separatedBy: ", "), false),
        ("pass_images", ["serial", "path", "bytes"], false),
        ("devices", ["device_library_id", "push_token", "updated_at"], false),
        ("registrations", ["device", "pass_type", "serial", "created_at"], false),
        ("install_passes", ["serial", "template", "devices"], false),
        ("install_devices", ["template", "device", "passes"], false),
        (
            "install_days",
            [
                "template", "day", "issued", "added", "removed", "devices_change", "google_saved", "google_deleted",
                "google_change", "google_silent",
            ], false
        ),
        (
            "push_outbox",
            ["id", "push_token", "pass_type", "serial", "tag", "attempts", "due_at", "claimed_until", "last_error"],
            true
        ),
        ("push_history", ["id", "serial", "pass_type", "tag", "result", "detail", "at"], true),
        ("logs", ["id", "at", "message"], true),
        ("personalizations", ["id", "serial", "pass_type", "token", "info", "at", "signature"], true),
        ("pass_links", ["serial", "token_hash", "created_at", "expires_at", "revoked_at", "selector"], false),
        // Before the templates: copying a template row queues its Google class by trigger, with an id after the
        // copied rows; `copy` deletes those rows again (the copy holds what the file held, nothing more).
        (
            "google_objects",
            [
                "serial", "object_id", "template", "inserted", "delivered_tag", "delivered_record", "saved",
                "silent_updates", "linked_at",
            ], false
        ),
        (
            "google_outbox",
            ["id", "kind", "subject", "attempts", "due_at", "claimed_until", "in_doubt", "step", "last_error"], true
        ),
        ("google_notices", ["serial", "at"], false),
        ("google_callbacks", ["nonce", "object_id", "event", "expires_at", "received_at"], false),
        // The template versions passes name (passmint-template:NAME@digest): without them they cannot render.
        ("template_versions", ["digest", "designer", "file_count", "total_bytes", "created_at"], false),
        ("template_files", ["digest", "path", "bytes"], false),
        ("templates", ["name", "digest", "published_at"], false),
    ]

    /// Copies `source` into `target`.
    /// - Throws: `StoreError.copyTargetNotEmpty` when `target` already holds passes (it must be empty, so
    ///   nothing is merged by accident), or the store errors of either side.
    package static func copy(from source: SQLiteStore, to target: PostgresStore) throws -> Counts {
        try source.pool.withConnection { sqlite in
            try target.pool.transaction { pg in
                let existing = try pg.query("SELECT count(*) FROM passes").int(0, 0)
                guard existing == 0 else {
                    throw StoreError.copyTargetNotEmpty(server: target.server, passes: existing)
                }
                var counts = Counts(rows: [])
                for table in tables {
                    counts.rows.append((table.name, try copy(table.name, table.columns, from: sqlite, to: pg)))
                    if table.identity {
                        // Rows keep their ids; new rows continue after them.
                        try pg.execute(
                            """
                            SELECT setval(pg_get_serial_sequence('\(table.name)', 'id'),
                                coalesce((SELECT max(id) FROM \(table.name)), 0) + 1, false)
                            """)
                    }
                }
                let lastGoogleRow = try sqlite.withStatement("SELECT coalesce(max(id), 0) FROM google_outbox") { s in
                    try s.step() ? s.int64(0) : 0
                }
                try pg.query("DELETE FROM google_outbox WHERE id > $1::bigint", [String(lastGoogleRow)])
                let lastTag = try sqlite.withStatement(
                    "SELECT max(coalesce((SELECT max(tag) FROM passes), 0), (SELECT value FROM meta WHERE key = 'tag'))"
                ) { s in try s.step() ? s.int64(0) : 0 }
                try pg.query("SELECT setval('pass_tag', $1, true)", [String(max(lastTag, 1))])
                // Statistics for the planner now, not when autovacuum gets to the freshly filled tables. Only
                // these tables: a bare ANALYZE visits every table of the database, other schemas' included.
                try pg.execute("ANALYZE " + tables.map(\.name).joined(separator: ", "))
                return counts
            }
        }
    }

    /// Streams one table row by row (the whole file is never in memory).
    private static func copy(_ table: String, _ columns: [String], from sqlite: SQLiteConnection, to pg: PGConnection)
        throws -> Int
    {
        let list = columns.joined(separator: ", ")
        let placeholders = (1...columns.count).map { "$\($0)" }.joined(separator: ", ")
        let insert = "INSERT INTO \(table) (\(list)) VALUES (\(placeholders))"
        // Blobs travel as bytea's text form: `\x` and the hex SQLite writes (NULL stays NULL).
        let selected = columns.map {
            ["bytes", "signature"].contains($0) ? "CASE WHEN \($0) IS NULL THEN NULL ELSE '\\x' || hex(\($0)) END" : $0
        }.joined(separator: ", ")
        return try sqlite.withStatement("SELECT \(selected) FROM \(table)") { s in
            var count = 0
            while try s.step() {
                // Text form of every value; PostgreSQL converts to the column's type (0/1 → boolean).
                try pg.query(insert, (0..<columns.count).map { s.optionalString(Int32($0)) })
                count += 1
            }
            return count
        }
    }
}
