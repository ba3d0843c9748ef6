/// The SQLite schema of the update service. Idempotent: every process that opens the file runs it.
enum SQLiteSchema {
    static let version = 2

    static let script = """
        BEGIN IMMEDIATE;
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
        -- Version 2: the per-record images of a pass (a member photo's thumbnail.png, thumbnail@2x.png, …), so the
        -- service re-renders the pass without the original file. Older files gain the table on their next open.
        CREATE TABLE IF NOT EXISTS pass_images (
            serial TEXT NOT NULL,
            path TEXT NOT NULL,
            bytes BLOB NOT NULL,
            PRIMARY KEY (serial, path)
        );
        PRAGMA user_version = \(version);
        COMMIT;
        """
}
