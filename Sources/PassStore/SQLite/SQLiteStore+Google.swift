import Foundation
import PassSigning

/// The Google Wallet side of the SQLite store (see `GoogleWalletStore`).
extension SQLiteStore: GoogleWalletStore {
    /// Migration 13. Rows are queued by triggers, so every writer (an update, a bulk chunk, a re-issue, a publish,
    /// another process) queues in the transaction that writes the version; a row already waiting unclaimed for
    /// the same subject takes the change along (it sends the state current when it is sent). Queued rows are due
    /// at once (`due_at` 0); retries carry their own time.
    static let googleMigration = """
        CREATE TABLE google_objects (
            serial TEXT PRIMARY KEY,
            object_id TEXT NOT NULL UNIQUE,
            template TEXT NOT NULL,
            inserted INTEGER NOT NULL DEFAULT 0,
            delivered_tag INTEGER,
            delivered_record TEXT,
            saved INTEGER NOT NULL DEFAULT 0,
            silent_updates INTEGER NOT NULL DEFAULT 0,
            linked_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE google_outbox (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            kind TEXT NOT NULL,
            subject TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            due_at INTEGER NOT NULL,
            claimed_until INTEGER NOT NULL DEFAULT 0,
            in_doubt INTEGER NOT NULL DEFAULT 0,
            step INTEGER NOT NULL DEFAULT 0,
            last_error TEXT
        );
        CREATE INDEX google_outbox_due ON google_outbox (due_at);
        CREATE INDEX google_outbox_subject ON google_outbox (kind, subject);
        CREATE TABLE google_notices (
            serial TEXT NOT NULL,
            at INTEGER NOT NULL
        );
        CREATE INDEX google_notices_serial ON google_notices (serial, at);
        CREATE TABLE google_callbacks (
            nonce TEXT PRIMARY KEY,
            object_id TEXT NOT NULL,
            event TEXT NOT NULL,
            expires_at INTEGER NOT NULL,
            received_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX google_callbacks_expiry ON google_callbacks (expires_at);
        ALTER TABLE install_days ADD COLUMN google_saved INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE install_days ADD COLUMN google_deleted INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE install_days ADD COLUMN google_change INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE install_days ADD COLUMN google_silent INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE pass_images ADD COLUMN content_digest TEXT;
        CREATE INDEX pass_images_content ON pass_images (content_digest);
        ALTER TABLE template_files ADD COLUMN content_digest TEXT;
        CREATE INDEX template_files_content ON template_files (content_digest);
        CREATE TRIGGER google_object_version AFTER UPDATE OF tag ON passes
        WHEN NEW.tag <> OLD.tag AND EXISTS (SELECT 1 FROM google_objects WHERE serial = NEW.serial)
        BEGIN
            INSERT INTO google_outbox (kind, subject, due_at) SELECT 'object', NEW.serial, 0
            WHERE NOT EXISTS (SELECT 1 FROM google_outbox
                WHERE kind = 'object' AND subject = NEW.serial AND claimed_until = 0 AND step = 0);
        END;
        CREATE TRIGGER google_class_published AFTER INSERT ON templates
        BEGIN
            INSERT INTO google_outbox (kind, subject, due_at) SELECT 'class', NEW.name, 0
            WHERE NOT EXISTS (SELECT 1 FROM google_outbox
                WHERE kind = 'class' AND subject = NEW.name AND claimed_until = 0 AND step = 0);
        END;
        CREATE TRIGGER google_class_republished AFTER UPDATE OF digest ON templates WHEN NEW.digest <> OLD.digest
        BEGIN
            INSERT INTO google_outbox (kind, subject, due_at) SELECT 'class', NEW.name, 0
            WHERE NOT EXISTS (SELECT 1 FROM google_outbox
                WHERE kind = 'class' AND subject = NEW.name AND claimed_until = 0 AND step = 0);
        END;
        """

    /// Migration 13's digests of the template files and pass images stored before it (SQLite has no SHA-256).
    static func fillImageDigests(_ db: SQLiteConnection) throws {
        for table in ["pass_images", "template_files"] {
            let rows = try db.withStatement("SELECT rowid, bytes FROM \(table) WHERE content_digest IS NULL") { s in
                var rows: [(Int64, String)] = []
                while try s.step() { rows.append((s.int64(0), SHA256Digest.hex(s.blob(1)))) }
                return rows
            }
            for (rowid, digest) in rows {
                try db.withStatement("UPDATE \(table) SET content_digest = ?2 WHERE rowid = ?1") { s in
                    try s.bind(1, rowid)
                    try s.bind(2, digest)
                    try s.run()
                }
            }
        }
    }

    @discardableResult
    package func linkGoogleObjects(_ links: [GoogleObjectLink], queue: Bool) throws -> Int {
        guard !links.isEmpty else { return 0 }
        let nowSeconds = Self.seconds(now())
        return try pool.write { db in
            var linked = 0
            for link in links {
                let found: (template: String, record: String)? = try db.withStatement(
                    "SELECT template, record FROM passes WHERE serial = ?1"
                ) { s in
                    try s.bind(1, link.serialNumber)
                    return try s.step() ? (s.string(0), s.string(1)) : nil
                }
                guard let found else { continue }
                try Self.linkGoogleObject(
                    db, link, template: found.template, record: found.record, nowSeconds: nowSeconds)
                if queue { try Self.queueGoogle(db, kind: .object, subject: link.serialNumber) }
                linked += 1
            }
            return linked
        }
    }

    /// Links a stored pass (its `template` column and encoded record given) to its Google object (call in a write
    /// transaction). The record is what a save link made now carries: the next change is announced against it.
    static func linkGoogleObject(
        _ db: SQLiteConnection, _ link: GoogleObjectLink, template: String, record: String, nowSeconds: Int64
    ) throws {
        try db.withStatement(
            """
            INSERT INTO google_objects (serial, object_id, template, delivered_record, linked_at)
            VALUES (?1, ?2, ?3, ?4, ?5)
            ON CONFLICT (serial) DO UPDATE SET object_id = excluded.object_id, template = excluded.template,
                inserted = CASE WHEN google_objects.object_id = excluded.object_id
                    THEN google_objects.inserted ELSE 0 END,
                delivered_record = CASE WHEN google_objects.object_id = excluded.object_id
                    THEN google_objects.delivered_record ELSE excluded.delivered_record END
            """
        ) { s in
            try s.bind(1, link.serialNumber)
            try s.bind(2, link.objectID)
            try s.bind(3, InstallStats.templateName(template))
            try s.bind(4, record)
            try s.bind(5, nowSeconds)
            try s.run()
        }
    }

    /// Queues a row unless one for the same subject waits unclaimed (the triggers' rule).
    static func queueGoogle(_ db: SQLiteConnection, kind: GoogleJobKind, subject: String) throws {
        try db.withStatement(
            """
            INSERT INTO google_outbox (kind, subject, due_at) SELECT ?1, ?2, 0
            WHERE NOT EXISTS (SELECT 1 FROM google_outbox
                WHERE kind = ?1 AND subject = ?2 AND claimed_until = 0 AND step = 0)
            """
        ) { s in
            try s.bind(1, kind.rawValue)
            try s.bind(2, subject)
            try s.run()
        }
    }

    package func googleObject(serial: String) throws -> GoogleObjectState? {
        try pool.withConnection { db in
            try db.withStatement(
                """
                SELECT serial, object_id, template, inserted, coalesce(delivered_tag, 0), delivered_record, saved,
                    silent_updates, delivered_tag IS NULL
                FROM google_objects WHERE serial = ?1
                """
            ) { s in
                try s.bind(1, serial)
                guard try s.step() else { return nil }
                let delivered = try s.optionalString(5).map { try Self.decode($0, serial: serial) }
                return GoogleObjectState(
                    serialNumber: s.string(0), objectID: s.string(1), template: s.string(2), inserted: s.int(3) != 0,
                    deliveredTag: s.int(8) != 0 ? nil : s.int64(4), deliveredRecord: delivered,
                    saved: s.int(6) != 0, silentUpdates: s.int(7))
            }
        }
    }

    package func claimDueGoogleJobs(limit: Int, now: Date, lease: TimeInterval) throws -> [GoogleJob] {
        let nowMilliseconds = Self.milliseconds(now)
        let leaseUntil = nowMilliseconds + Int64((lease * 1000).rounded(.up))
        return try pool.write { db in
            // `in_doubt` is computed from the row before this update: a claim that never recorded an answer left
            // `claimed_until` set (a retry or a step resets it).
            try db.withStatement(
                """
                UPDATE google_outbox SET in_doubt = (claimed_until <> 0), claimed_until = ?2 WHERE id IN (
                    SELECT id FROM google_outbox WHERE due_at <= ?1 AND claimed_until <= ?1
                    ORDER BY kind = 'object', due_at, id LIMIT ?3)
                RETURNING id, kind, subject, attempts, in_doubt, step
                """
            ) { s in
                try s.bind(1, nowMilliseconds)
                try s.bind(2, leaseUntil)
                try s.bind(3, limit)
                var jobs: [GoogleJob] = []
                while try s.step() {
                    jobs.append(
                        GoogleJob(
                            id: s.int64(0), kind: GoogleJobKind(rawValue: s.string(1)) ?? .object,
                            subject: s.string(2), attempts: s.int(3), inDoubt: s.int(4) != 0,
                            step: GoogleJobStep(rawValue: s.int(5)) ?? .start))
                }
                return GoogleJob.claimOrder(jobs)
            }
        }
    }

    package func completeGoogleJob(id: Int64, delivery: GoogleDelivery?) throws {
        try pool.write { db in
            try db.withStatement("DELETE FROM google_outbox WHERE id = ?1") { s in
                try s.bind(1, id)
                try s.run()
            }
            guard let delivery else { return }
            let serial = delivery.serialNumber
            try db.withStatement(
                """
                UPDATE google_objects SET inserted = 1,
                    delivered_record = CASE WHEN delivered_tag IS NULL OR delivered_tag <= ?2 THEN ?3
                        ELSE delivered_record END,
                    delivered_tag = max(coalesce(delivered_tag, ?2), ?2),
                    silent_updates = silent_updates + ?4
                WHERE serial = ?1
                """
            ) { s in
                try s.bind(1, serial)
                try s.bind(2, delivery.tag)
                try s.bind(3, try Self.encode(delivery.record))
                try s.bind(4, delivery.announcement == .silenced ? 1 : 0)
                try s.run()
            }
            let at = Self.milliseconds(delivery.at)
            switch delivery.announcement {
            case .none:
                break
            case .notified:
                // Only the last 24 hours count; older rows go as new ones come.
                try db.withStatement("DELETE FROM google_notices WHERE serial = ?1 AND at < ?2") { s in
                    try s.bind(1, serial)
                    try s.bind(2, at - 86_400_000)
                    try s.run()
                }
                try db.withStatement("INSERT INTO google_notices (serial, at) VALUES (?1, ?2)") { s in
                    try s.bind(1, serial)
                    try s.bind(2, at)
                    try s.run()
                }
            case .silenced:
                try db.withStatement(
                    """
                    INSERT INTO install_days (template, day, google_silent)
                    SELECT template, ?2, 1 FROM google_objects WHERE serial = ?1
                    ON CONFLICT (template, day) DO UPDATE SET google_silent = google_silent + 1
                    """
                ) { s in
                    try s.bind(1, serial)
                    try s.bind(2, UTCDay(delivery.at).number)
                    try s.run()
                }
            }
        }
    }

    package func advanceGoogleJob(id: Int64, to step: GoogleJobStep) throws {
        try pool.write { db in
            try db.withStatement("UPDATE google_outbox SET step = ?2 WHERE id = ?1") { s in
                try s.bind(1, id)
                try s.bind(2, step.rawValue)
                try s.run()
            }
        }
    }

    package func markGoogleObjectInserted(serial: String) throws {
        try pool.write { db in
            try db.withStatement("UPDATE google_objects SET inserted = 1 WHERE serial = ?1") { s in
                try s.bind(1, serial)
                try s.run()
            }
        }
    }

    package func retryGoogleJob(id: Int64, at: Date, reason: String) throws {
        try pool.write { db in
            try db.withStatement(
                """
                UPDATE google_outbox SET attempts = attempts + 1, due_at = ?2, claimed_until = 0, in_doubt = 0,
                    last_error = ?3
                WHERE id = ?1
                """
            ) { s in
                try s.bind(1, id)
                try s.bind(2, Self.milliseconds(at))
                try s.bind(3, reason)
                try s.run()
            }
        }
    }

    package func abandonGoogleJob(id: Int64, reason: String) throws {
        try completeGoogleJob(id: id, delivery: nil)
    }

    package func googleNotices(serial: String, since: Date) throws -> Int {
        try pool.withConnection { db in
            try db.withStatement("SELECT count(*) FROM google_notices WHERE serial = ?1 AND at > ?2") { s in
                try s.bind(1, serial)
                try s.bind(2, Self.milliseconds(since))
                return try s.step() ? s.int(0) : 0
            }
        }
    }

    package func googleOutboxDepth() throws -> Int {
        try pool.withConnection { db in
            try db.withStatement("SELECT count(*) FROM google_outbox") { s in try s.step() ? s.int(0) : 0 }
        }
    }

    package func recordGoogleCallback(_ event: GoogleCallbackEvent) throws -> GoogleCallbackOutcome {
        let received = Self.milliseconds(event.receivedAt)
        return try pool.write { db in
            try db.withStatement("DELETE FROM google_callbacks WHERE expires_at < ?1") { s in
                try s.bind(1, received)
                try s.run()
            }
            let fresh = try db.withStatement(
                """
                INSERT INTO google_callbacks (nonce, object_id, event, expires_at, received_at)
                VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (nonce) DO NOTHING
                """
            ) { s in
                try s.bind(1, event.nonce)
                try s.bind(2, event.objectID)
                try s.bind(3, event.kind.rawValue)
                try s.bind(4, Self.milliseconds(event.expiresAt))
                try s.bind(5, received)
                try s.run()
                return db.changes == 1
            }
            guard fresh else { return .replay }
            let saving = event.kind == .save
            let object: (template: String, wasSaved: Bool)? = try db.withStatement(
                "SELECT template, saved FROM google_objects WHERE object_id = ?1"
            ) { s in
                try s.bind(1, event.objectID)
                return try s.step() ? (s.string(0), s.int(1) != 0) : nil
            }
            guard let object else { return .unknownObject }
            try db.withStatement("UPDATE google_objects SET saved = ?2 WHERE object_id = ?1") { s in
                try s.bind(1, event.objectID)
                try s.bind(2, saving ? 1 : 0)
                try s.run()
            }
            // The active count moves only on a transition (a save of a saved object is counted, not added).
            let change = saving ? (object.wasSaved ? 0 : 1) : (object.wasSaved ? -1 : 0)
            try db.withStatement(
                """
                INSERT INTO install_days (template, day, google_saved, google_deleted, google_change)
                VALUES (?1, ?2, ?3, ?4, ?5)
                ON CONFLICT (template, day) DO UPDATE SET google_saved = google_saved + excluded.google_saved,
                    google_deleted = google_deleted + excluded.google_deleted,
                    google_change = google_change + excluded.google_change
                """
            ) { s in
                try s.bind(1, object.template)
                try s.bind(2, UTCDay(event.receivedAt).number)
                try s.bind(3, saving ? 1 : 0)
                try s.bind(4, saving ? 0 : 1)
                try s.bind(5, change)
                try s.run()
            }
            return .counted(template: object.template)
        }
    }

    package func publicImage(digest: String) throws -> PublicImage? {
        guard Self.isDigestPrefix(digest) else { return nil }
        return try pool.withConnection { db in
            for table in ["pass_images", "template_files"] {
                // A range on the index: every digest that starts with the given hex digits.
                let found = try db.withStatement(
                    "SELECT path, bytes FROM \(table) WHERE content_digest >= ?1 AND content_digest < ?1 || 'g' LIMIT 1"
                ) { s in
                    try s.bind(1, digest)
                    return try s.step() ? PublicImage(path: s.string(0), bytes: s.blob(1)) : nil
                }
                if let found { return found }
            }
            return nil
        }
    }
}

extension SQLiteStore {
    /// 16 to 64 lowercase hex digits: what a content-addressed image URL names.
    static func isDigestPrefix(_ text: String) -> Bool {
        (16...64).contains(text.utf8.count)
            && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}

extension GoogleJob {
    /// Class rows first (an object needs its class), then by id; one row per object subject (a second row for
    /// the same pass would send the same state again: the caller completes it with the first).
    static func claimOrder(_ jobs: [GoogleJob]) -> [GoogleJob] {
        jobs.sorted { a, b in
            if (a.kind == .templateClass) != (b.kind == .templateClass) { return a.kind == .templateClass }
            return a.id < b.id
        }
    }
}
