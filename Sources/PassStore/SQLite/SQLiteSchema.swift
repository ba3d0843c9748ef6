/// The SQLite schema of the update service as versioned migrations, recorded in `PRAGMA user_version`.
///
/// Every process that opens the file runs `migrate`; `BEGIN IMMEDIATE` makes the steps run once even when two
/// processes open a new file at the same moment (the second waits, then finds the version current).
enum SQLiteSchema {
    static let migrations: [StoreMigration] = [
        StoreMigration(
            version: 1, purpose: "passes, devices, registrations, outbox, history, logs, personalizations",
            sql: """
                CREATE TABLE IF NOT EXISTS meta (
                    key TEXT PRIMARY KEY,
                    value INTEGER NOT NULL
                ) WITHOUT ROWID;
                INSERT OR IGNORE INTO meta (key, value) VALUES ('tag', 0);
                CREATE TABLE IF NOT EXISTS passes (
                    serial TEXT PRIMARY KEY,
                    pass_type TEXT NOT NULL,
                    template TEXT NOT NULL,
                    record TEXT NOT NULL,
                    auth_token TEXT NOT NULL,
                    tag INTEGER NOT NULL,
                    modified_at INTEGER NOT NULL,
                    voided INTEGER NOT NULL DEFAULT 0
                );
                CREATE INDEX IF NOT EXISTS passes_tag ON passes (tag);
                CREATE TABLE IF NOT EXISTS devices (
                    device_library_id TEXT PRIMARY KEY,
                    push_token TEXT NOT NULL,
                    updated_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX IF NOT EXISTS devices_push_token ON devices (push_token);
                CREATE TABLE IF NOT EXISTS registrations (
                    device TEXT NOT NULL,
                    pass_type TEXT NOT NULL,
                    serial TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    PRIMARY KEY (device, pass_type, serial)
                ) WITHOUT ROWID;
                CREATE INDEX IF NOT EXISTS registrations_pass ON registrations (serial, pass_type);
                CREATE TABLE IF NOT EXISTS push_outbox (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    push_token TEXT NOT NULL,
                    pass_type TEXT NOT NULL,
                    serial TEXT NOT NULL,
                    tag INTEGER NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    due_at INTEGER NOT NULL,
                    claimed_until INTEGER NOT NULL DEFAULT 0,
                    last_error TEXT
                );
                CREATE INDEX IF NOT EXISTS push_outbox_due ON push_outbox (due_at);
                CREATE INDEX IF NOT EXISTS push_outbox_token ON push_outbox (push_token, pass_type);
                CREATE INDEX IF NOT EXISTS push_outbox_serial ON push_outbox (serial);
                CREATE TABLE IF NOT EXISTS push_history (
                    id INTEGER PRIMARY KEY,
                    serial TEXT NOT NULL,
                    pass_type TEXT NOT NULL,
                    tag INTEGER NOT NULL,
                    result TEXT NOT NULL,
                    detail TEXT NOT NULL,
                    at INTEGER NOT NULL
                );
                CREATE INDEX IF NOT EXISTS push_history_serial ON push_history (serial, id);
                CREATE TABLE IF NOT EXISTS logs (
                    id INTEGER PRIMARY KEY,
                    at INTEGER NOT NULL,
                    message TEXT NOT NULL
                );
                CREATE TABLE IF NOT EXISTS personalizations (
                    id INTEGER PRIMARY KEY,
                    serial TEXT NOT NULL,
                    pass_type TEXT NOT NULL,
                    token TEXT NOT NULL,
                    info TEXT NOT NULL,
                    at INTEGER NOT NULL
                );
                """),
        StoreMigration(
            version: 2,
            purpose: "the per-record images of a pass (a member photo's thumbnail.png, @2x, @3x), so the service "
                + "re-renders the pass without the original file",
            sql: """
                CREATE TABLE IF NOT EXISTS pass_images (
                    serial TEXT NOT NULL,
                    path TEXT NOT NULL,
                    bytes BLOB NOT NULL,
                    PRIMARY KEY (serial, path)
                );
                """),
        StoreMigration(
            version: 3,
            purpose: "the web service URL and the compatible flag leave the record for columns of their own",
            sql: """
                ALTER TABLE passes ADD COLUMN web_service_url TEXT;
                ALTER TABLE passes ADD COLUMN compatible_pass INTEGER NOT NULL DEFAULT 0;
                UPDATE passes SET
                    web_service_url = json_extract(record, '$."@webServiceURL"'),
                    compatible_pass = coalesce(json_extract(record, '$."@compatiblePass"') = 'true', 0),
                    record = json_remove(record, '$."@webServiceURL"', '$."@compatiblePass"')
                WHERE json_type(record, '$."@webServiceURL"') IS NOT NULL
                    OR json_type(record, '$."@compatiblePass"') IS NOT NULL;
                """),
        StoreMigration(
            version: 4,
            purpose: StoreMigration.Purpose.links,
            sql: """
                CREATE TABLE IF NOT EXISTS pass_links (
                    serial TEXT PRIMARY KEY,
                    token_hash TEXT NOT NULL UNIQUE,
                    created_at INTEGER NOT NULL,
                    expires_at INTEGER,
                    revoked_at INTEGER
                );
                """),
        StoreMigration(
            version: 5,
            purpose: StoreMigration.Purpose.installFigures,
            sql: SQLiteStore.installStatsMigration),
        StoreMigration(
            version: 6,
            purpose: StoreMigration.Purpose.templateVersions,
            sql: """
                CREATE TABLE IF NOT EXISTS template_versions (
                    digest TEXT PRIMARY KEY,
                    designer INTEGER NOT NULL DEFAULT 0,
                    file_count INTEGER NOT NULL,
                    total_bytes INTEGER NOT NULL,
                    created_at INTEGER NOT NULL
                );
                CREATE TABLE IF NOT EXISTS template_files (
                    digest TEXT NOT NULL,
                    path TEXT NOT NULL,
                    bytes BLOB NOT NULL,
                    PRIMARY KEY (digest, path)
                );
                CREATE TABLE IF NOT EXISTS templates (
                    name TEXT PRIMARY KEY,
                    digest TEXT NOT NULL,
                    published_at INTEGER NOT NULL
                );
                CREATE INDEX IF NOT EXISTS passes_template_serial ON passes (template, serial);
                """),
        StoreMigration(
            version: 7,
            purpose: StoreMigration.Purpose.bulkProgress,
            sql: """
                CREATE TABLE IF NOT EXISTS bulk_progress (
                    job TEXT PRIMARY KEY,
                    position INTEGER NOT NULL,
                    updated_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS update_jobs (
                    id TEXT PRIMARY KEY,
                    status TEXT NOT NULL,
                    rows INTEGER NOT NULL DEFAULT 0,
                    changed INTEGER NOT NULL DEFAULT 0,
                    unchanged INTEGER NOT NULL DEFAULT 0,
                    failed INTEGER NOT NULL DEFAULT 0,
                    pushes_queued INTEGER NOT NULL DEFAULT 0,
                    failures TEXT NOT NULL DEFAULT '[]',
                    message TEXT,
                    created_at INTEGER NOT NULL,
                    updated_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                """),
        StoreMigration(
            version: 10,
            purpose: StoreMigration.Purpose.unauthenticatedWrites,
            sql: """
                ALTER TABLE passes ADD COLUMN personalized_at INTEGER;
                ALTER TABLE personalizations ADD COLUMN signature BLOB;
                CREATE INDEX IF NOT EXISTS logs_at ON logs (at);
                CREATE INDEX IF NOT EXISTS personalizations_at ON personalizations (at);
                CREATE INDEX IF NOT EXISTS personalizations_serial ON personalizations (serial);
                CREATE UNIQUE INDEX IF NOT EXISTS personalizations_signed ON personalizations (serial)
                    WHERE signature IS NOT NULL;
                CREATE TABLE IF NOT EXISTS unauthenticated_usage (
                    kind TEXT PRIMARY KEY,
                    bytes INTEGER NOT NULL,
                    rows INTEGER NOT NULL
                ) WITHOUT ROWID;
                INSERT OR REPLACE INTO unauthenticated_usage (kind, bytes, rows)
                    SELECT 'log', coalesce(sum(\(SQLiteStore.logBytes("message"))), 0), count(*) FROM logs;
                INSERT OR REPLACE INTO unauthenticated_usage (kind, bytes, rows)
                    SELECT 'personalization', coalesce(sum(\(SQLiteStore.personalizationBytes(""))), 0), count(*)
                    FROM personalizations;
                CREATE TRIGGER IF NOT EXISTS logs_usage_insert AFTER INSERT ON logs BEGIN
                    UPDATE unauthenticated_usage SET bytes = bytes + \(SQLiteStore.logBytes("NEW.message")),
                        rows = rows + 1 WHERE kind = 'log';
                END;
                CREATE TRIGGER IF NOT EXISTS logs_usage_delete AFTER DELETE ON logs BEGIN
                    UPDATE unauthenticated_usage SET bytes = bytes - \(SQLiteStore.logBytes("OLD.message")),
                        rows = rows - 1 WHERE kind = 'log';
                END;
                CREATE TRIGGER IF NOT EXISTS logs_usage_update AFTER UPDATE ON logs BEGIN
                    UPDATE unauthenticated_usage SET bytes = bytes - \(SQLiteStore.logBytes("OLD.message"))
                        + \(SQLiteStore.logBytes("NEW.message")) WHERE kind = 'log';
                END;
                CREATE TRIGGER IF NOT EXISTS personalizations_usage_insert AFTER INSERT ON personalizations BEGIN
                    UPDATE unauthenticated_usage SET bytes = bytes + \(SQLiteStore.personalizationBytes("NEW.")),
                        rows = rows + 1 WHERE kind = 'personalization';
                END;
                CREATE TRIGGER IF NOT EXISTS personalizations_usage_delete AFTER DELETE ON personalizations BEGIN
                    UPDATE unauthenticated_usage SET bytes = bytes - \(SQLiteStore.personalizationBytes("OLD.")),
                        rows = rows - 1 WHERE kind = 'personalization';
                END;
                CREATE TRIGGER IF NOT EXISTS personalizations_usage_update AFTER UPDATE ON personalizations BEGIN
                    UPDATE unauthenticated_usage SET bytes = bytes - \(SQLiteStore.personalizationBytes("OLD."))
                        + \(SQLiteStore.personalizationBytes("NEW.")) WHERE kind = 'personalization';
                END;
                """),
        StoreMigration(
            version: 12, purpose: StoreMigration.Purpose.passEvents,
            sql: """
                CREATE TABLE IF NOT EXISTS pass_events (
                    id INTEGER PRIMARY KEY,
                    serial TEXT NOT NULL,
                    pass_type TEXT NOT NULL,
                    device TEXT,
                    kind TEXT NOT NULL,
                    at INTEGER NOT NULL,
                    tag INTEGER,
                    detail TEXT NOT NULL
                );
                CREATE INDEX IF NOT EXISTS pass_events_serial ON pass_events (serial, id);
                CREATE TABLE IF NOT EXISTS pass_versions (
                    id INTEGER PRIMARY KEY,
                    serial TEXT NOT NULL,
                    tag INTEGER NOT NULL,
                    modified_at INTEGER NOT NULL,
                    voided INTEGER NOT NULL,
                    changed TEXT NOT NULL
                );
                CREATE INDEX IF NOT EXISTS pass_versions_serial ON pass_versions (serial, id);
                CREATE INDEX IF NOT EXISTS pass_versions_at ON pass_versions (modified_at);
                CREATE TRIGGER IF NOT EXISTS passes_version_insert AFTER INSERT ON passes BEGIN
                    INSERT INTO pass_versions (serial, tag, modified_at, voided, changed)
                    VALUES (NEW.serial, NEW.tag, NEW.modified_at, NEW.voided, '{}');
                END;
                CREATE TRIGGER IF NOT EXISTS passes_version_update AFTER UPDATE OF tag ON passes
                WHEN NEW.tag <> OLD.tag BEGIN
                    INSERT INTO pass_versions (serial, tag, modified_at, voided, changed)
                    VALUES (NEW.serial, NEW.tag, NEW.modified_at, NEW.voided, (
                        SELECT coalesce(json_group_object(key, json_array(old, new)), '{}') FROM (
                            SELECT n.key AS key, o.value AS old, n.value AS new FROM json_each(NEW.record) n
                            LEFT JOIN json_each(OLD.record) o ON o.key = n.key WHERE o.value IS NOT n.value
                            UNION ALL
                            SELECT o.key, o.value, NULL FROM json_each(OLD.record) o
                            WHERE NOT EXISTS (SELECT 1 FROM json_each(NEW.record) n WHERE n.key = o.key))));
                    DELETE FROM pass_versions WHERE serial = NEW.serial AND id <= (
                        SELECT id FROM pass_versions WHERE serial = NEW.serial ORDER BY id DESC
                        LIMIT 1 OFFSET \(PassEventLimits.versionsPerPass));
                END;
                INSERT INTO pass_versions (serial, tag, modified_at, voided, changed)
                    SELECT serial, tag, modified_at, voided, '{}' FROM passes;
                ALTER TABLE push_outbox ADD COLUMN first_due_at INTEGER;
                """),
        StoreMigration(
            version: 13,
            purpose: StoreMigration.Purpose.googleWallet,
            sql: SQLiteStore.googleMigration),
        StoreMigration(
            version: 14, purpose: StoreMigration.Purpose.registrationTags,
            sql: "ALTER TABLE registrations ADD COLUMN tag INTEGER;"),
        StoreMigration(
            version: 15, purpose: StoreMigration.Purpose.linkSelectors,
            sql: """
                CREATE TABLE pass_links_keyed (
                    serial TEXT PRIMARY KEY,
                    token_hash TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    expires_at INTEGER,
                    revoked_at INTEGER,
                    selector TEXT UNIQUE
                );
                INSERT INTO pass_links_keyed (serial, token_hash, created_at, expires_at, revoked_at)
                    SELECT serial, token_hash, created_at, expires_at, revoked_at FROM pass_links;
                DROP TABLE pass_links;
                ALTER TABLE pass_links_keyed RENAME TO pass_links;
                CREATE UNIQUE INDEX pass_links_selectorless ON pass_links (token_hash) WHERE selector IS NULL;
                """),
    ]

    /// Steps SQL cannot take in SQLite, run after the SQL of their version in the same transaction.
    static let swiftSteps: [Int: @Sendable (SQLiteConnection) throws -> Void] = [
        13: { db in try SQLiteStore.fillImageDigests(db) }
    ]

    static var latestVersion: Int { migrations.last?.version ?? 0 }

    /// Applies the missing migrations in one immediate transaction; returns the versions applied.
    /// - Throws: `StoreError.schemaTooNew` for a file migrated by a newer PassMint.
    @discardableResult
    static func migrate(_ db: SQLiteConnection) throws -> [Int] {
        try db.execute("BEGIN IMMEDIATE")
        do {
            let current = try db.withStatement("PRAGMA user_version") { s in try s.step() ? s.int(0) : 0 }
            guard current <= latestVersion else {
                throw StoreError.schemaTooNew(server: db.path, found: current, known: latestVersion)
            }
            let missing = migrations.filter { $0.version > current }
            for migration in missing {
                try db.execute(migration.sql)
                try swiftSteps[migration.version]?(db)
            }
            if !missing.isEmpty { try db.execute("PRAGMA user_version = \(latestVersion)") }
            try db.execute("COMMIT")
            return missing.map(\.version)
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }
}
