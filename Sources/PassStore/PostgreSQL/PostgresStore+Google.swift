import Foundation

/// The Google Wallet side of the PostgreSQL store (see `GoogleWalletStore`); the same tables and rules as
/// SQLite's, claims with `FOR UPDATE SKIP LOCKED` like the push outbox, so every instance's worker shares them.
extension PostgresStore: GoogleWalletStore {
    /// Migration 13 (see `SQLiteStore.googleMigration`). The content digests are generated columns here.
    static let googleMigration = """
        CREATE TABLE google_objects (
            serial TEXT PRIMARY KEY,
            object_id TEXT NOT NULL UNIQUE,
            template TEXT NOT NULL,
            inserted BOOLEAN NOT NULL DEFAULT false,
            delivered_tag BIGINT,
            delivered_record TEXT,
            saved BOOLEAN NOT NULL DEFAULT false,
            silent_updates INTEGER NOT NULL DEFAULT 0,
            linked_at BIGINT NOT NULL
        );
        CREATE TABLE google_outbox (
            id BIGSERIAL PRIMARY KEY,
            kind TEXT NOT NULL,
            subject TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            due_at BIGINT NOT NULL,
            claimed_until BIGINT NOT NULL DEFAULT 0,
            in_doubt BOOLEAN NOT NULL DEFAULT false,
            step INTEGER NOT NULL DEFAULT 0,
            last_error TEXT
        );
        CREATE INDEX google_outbox_due ON google_outbox (due_at);
        CREATE INDEX google_outbox_subject ON google_outbox (kind, subject);
        CREATE TABLE google_notices (
            serial TEXT NOT NULL,
            at BIGINT NOT NULL
        );
        CREATE INDEX google_notices_serial ON google_notices (serial, at);
        CREATE TABLE google_callbacks (
            nonce TEXT PRIMARY KEY,
            object_id TEXT NOT NULL,
            event TEXT NOT NULL,
            expires_at BIGINT NOT NULL,
            received_at BIGINT NOT NULL
        );
        CREATE INDEX google_callbacks_expiry ON google_callbacks (expires_at);
        ALTER TABLE install_days ADD COLUMN google_saved INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE install_days ADD COLUMN google_deleted INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE install_days ADD COLUMN google_change INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE install_days ADD COLUMN google_silent INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE pass_images ADD COLUMN content_digest TEXT
            GENERATED ALWAYS AS (encode(sha256(bytes), 'hex')) STORED;
        CREATE INDEX pass_images_content ON pass_images (content_digest);
        ALTER TABLE template_files ADD COLUMN content_digest TEXT
            GENERATED ALWAYS AS (encode(sha256(bytes), 'hex')) STORED;
        CREATE INDEX template_files_content ON template_files (content_digest);
        CREATE FUNCTION passmint_google_queue(row_kind TEXT, row_subject TEXT) RETURNS void LANGUAGE sql
        SET search_path FROM CURRENT AS $$
            INSERT INTO google_outbox (kind, subject, due_at) SELECT row_kind, row_subject, 0
            WHERE NOT EXISTS (SELECT 1 FROM google_outbox
                WHERE kind = row_kind AND subject = row_subject AND claimed_until = 0 AND step = 0)
        $$;
        CREATE FUNCTION passmint_google_version() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $$
        BEGIN
            IF EXISTS (SELECT 1 FROM google_objects WHERE serial = NEW.serial) THEN
                PERFORM passmint_google_queue('object', NEW.serial);
            END IF;
            RETURN NULL;
        END $$;
        CREATE FUNCTION passmint_google_published() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $$
        BEGIN
            PERFORM passmint_google_queue('class', NEW.name);
            RETURN NULL;
        END $$;
        CREATE TRIGGER google_object_version AFTER UPDATE OF tag ON passes
            FOR EACH ROW WHEN (NEW.tag <> OLD.tag) EXECUTE FUNCTION passmint_google_version();
        CREATE TRIGGER google_class_published AFTER INSERT ON templates
            FOR EACH ROW EXECUTE FUNCTION passmint_google_published();
        CREATE TRIGGER google_class_republished AFTER UPDATE OF digest ON templates
            FOR EACH ROW WHEN (NEW.digest <> OLD.digest) EXECUTE FUNCTION passmint_google_published();
        CREATE TRIGGER google_outbox_notify AFTER INSERT ON google_outbox
            FOR EACH STATEMENT EXECUTE FUNCTION passmint_notify_statement('o');
        """

    @discardableResult
    package func linkGoogleObjects(_ links: [GoogleObjectLink], queue: Bool) throws -> Int {
        guard !links.isEmpty else { return 0 }
        let nowSeconds = String(RecordCoding.seconds(now()))
        return try pool.transaction { db in
            var linked = 0
            for link in links {
                let found = try db.query("SELECT template, record FROM passes WHERE serial = $1", [link.serialNumber])
                guard found.rowCount > 0 else { continue }
                try Self.linkGoogleObject(
                    db, link, template: found.string(0, 0), record: found.string(0, 1), nowSeconds: nowSeconds)
                if queue { try db.query("SELECT passmint_google_queue('object', $1)", [link.serialNumber]) }
                linked += 1
            }
            return linked
        }
    }

    /// Links a stored pass (of the `template` column given) to its Google object (call in a transaction).
    /// The record is what a save link made now carries: the next change is announced against it.
    static func linkGoogleObject(
        _ db: PGConnection, _ link: GoogleObjectLink, template: String, record: String, nowSeconds: String
    ) throws {
        try db.query(
            """
            INSERT INTO google_objects (serial, object_id, template, delivered_record, linked_at)
            VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (serial) DO UPDATE SET object_id = excluded.object_id, template = excluded.template,
                inserted = google_objects.inserted AND google_objects.object_id = excluded.object_id,
                delivered_record = CASE WHEN google_objects.object_id = excluded.object_id
                    THEN google_objects.delivered_record ELSE excluded.delivered_record END
            """, [link.serialNumber, link.objectID, InstallStats.templateName(template), record, nowSeconds])
    }

    package func googleObject(serial: String) throws -> GoogleObjectState? {
        try pool.withConnection { db in
            let r = try db.query(
                """
                SELECT serial, object_id, template, inserted, delivered_tag, delivered_record, saved, silent_updates
                FROM google_objects WHERE serial = $1
                """, [serial])
            guard r.rowCount > 0 else { return nil }
            return GoogleObjectState(
                serialNumber: r.string(0, 0), objectID: r.string(0, 1), template: r.string(0, 2),
                inserted: r.bool(0, 3), deliveredTag: r.isNull(0, 4) ? nil : r.int64(0, 4),
                deliveredRecord: try r.optionalString(0, 5).map { try RecordCoding.decode($0, serial: serial) },
                saved: r.bool(0, 6), silentUpdates: r.int(0, 7))
        }
    }

    package func claimDueGoogleJobs(limit: Int, now: Date, lease: TimeInterval) throws -> [GoogleJob] {
        let nowMilliseconds = RecordCoding.milliseconds(now)
        let leaseUntil = nowMilliseconds + Int64((lease * 1000).rounded(.up))
        return try pool.withConnection { db in
            let r = try db.queryPlanned(
                """
                UPDATE google_outbox SET in_doubt = (claimed_until <> 0), claimed_until = $2 WHERE id = ANY(ARRAY(
                    SELECT id FROM google_outbox WHERE due_at <= $1 AND claimed_until <= $1
                    ORDER BY kind = 'object', due_at, id LIMIT $3 FOR UPDATE SKIP LOCKED))
                RETURNING id, kind, subject, attempts, in_doubt, step
                """, [String(nowMilliseconds), String(leaseUntil), String(limit)])
            return GoogleJob.claimOrder(
                (0..<r.rowCount).map { row in
                    GoogleJob(
                        id: r.int64(row, 0), kind: GoogleJobKind(rawValue: r.string(row, 1)) ?? .object,
                        subject: r.string(row, 2), attempts: r.int(row, 3), inDoubt: r.bool(row, 4),
                        step: GoogleJobStep(rawValue: r.int(row, 5)) ?? .start)
                })
        }
    }

    package func completeGoogleJob(id: Int64, delivery: GoogleDelivery?) throws {
        try pool.transaction { db in
            try db.query("DELETE FROM google_outbox WHERE id = $1", [String(id)])
            guard let delivery else { return }
            let serial = delivery.serialNumber
            try db.query(
                """
                UPDATE google_objects SET inserted = true,
                    delivered_record = CASE WHEN delivered_tag IS NULL OR delivered_tag <= $2::bigint THEN $3
                        ELSE delivered_record END,
                    delivered_tag = greatest(coalesce(delivered_tag, $2::bigint), $2::bigint),
                    silent_updates = silent_updates + $4::integer
                WHERE serial = $1
                """,
                [
                    serial, String(delivery.tag), try RecordCoding.encode(delivery.record),
                    delivery.announcement == .silenced ? "1" : "0",
                ])
            let at = RecordCoding.milliseconds(delivery.at)
            switch delivery.announcement {
            case .none:
                break
            case .notified:
                try db.query(
                    "DELETE FROM google_notices WHERE serial = $1 AND at < $2::bigint",
                    [serial, String(at - 86_400_000)])
                try db.query("INSERT INTO google_notices (serial, at) VALUES ($1, $2::bigint)", [serial, String(at)])
            case .silenced:
                try db.query(
                    """
                    INSERT INTO install_days (template, day, shard, google_silent)
                    SELECT template, $2::bigint, $3::integer, 1 FROM google_objects WHERE serial = $1
                    ON CONFLICT (template, day, shard) DO UPDATE
                        SET google_silent = install_days.google_silent + 1
                    """, [serial, String(UTCDay(delivery.at).number), Self.shard()])
            }
        }
    }

    package func advanceGoogleJob(id: Int64, to step: GoogleJobStep) throws {
        try pool.withConnection { db in
            try db.query(
                "UPDATE google_outbox SET step = $2::integer WHERE id = $1", [String(id), String(step.rawValue)])
        }
    }

    package func markGoogleObjectInserted(serial: String) throws {
        try pool.withConnection { db in
            try db.query("UPDATE google_objects SET inserted = true WHERE serial = $1", [serial])
        }
    }

    package func retryGoogleJob(id: Int64, at: Date, reason: String) throws {
        try pool.withConnection { db in
            try db.query(
                """
                UPDATE google_outbox SET attempts = attempts + 1, due_at = $2::bigint, claimed_until = 0,
                    in_doubt = false, last_error = $3
                WHERE id = $1
                """, [String(id), String(RecordCoding.milliseconds(at)), reason])
        }
    }

    package func abandonGoogleJob(id: Int64, reason: String) throws {
        try completeGoogleJob(id: id, delivery: nil)
    }

    package func googleNotices(serial: String, since: Date) throws -> Int {
        try pool.withConnection { db in
            try db.query(
                "SELECT count(*) FROM google_notices WHERE serial = $1 AND at > $2::bigint",
                [serial, String(RecordCoding.milliseconds(since))]
            ).int(0, 0)
        }
    }

    package func googleOutboxDepth() throws -> Int {
        try pool.withConnection { db in try db.query("SELECT count(*) FROM google_outbox").int(0, 0) }
    }

    package func recordGoogleCallback(_ event: GoogleCallbackEvent) throws -> GoogleCallbackOutcome {
        let received = String(RecordCoding.milliseconds(event.receivedAt))
        return try pool.transaction { db in
            try db.query("DELETE FROM google_callbacks WHERE expires_at < $1::bigint", [received])
            let fresh =
                try db.query(
                    """
                    INSERT INTO google_callbacks (nonce, object_id, event, expires_at, received_at)
                    VALUES ($1, $2, $3, $4::bigint, $5::bigint) ON CONFLICT (nonce) DO NOTHING
                    """,
                    [
                        event.nonce, event.objectID, event.kind.rawValue,
                        String(RecordCoding.milliseconds(event.expiresAt)), received,
                    ]
                ).affectedRows == 1
            guard fresh else { return .replay }
            // The row is locked until commit: two callbacks of one object count their transition once.
            let found = try db.query(
                "SELECT template, saved FROM google_objects WHERE object_id = $1 FOR UPDATE", [event.objectID])
            guard found.rowCount > 0 else { return .unknownObject }
            let template = found.string(0, 0)
            let wasSaved = found.bool(0, 1)
            let saving = event.kind == .save
            try db.query(
                "UPDATE google_objects SET saved = $2::boolean WHERE object_id = $1",
                [event.objectID, saving ? "true" : "false"])
            let change = saving ? (wasSaved ? 0 : 1) : (wasSaved ? -1 : 0)
            try db.query(
                """
                INSERT INTO install_days (template, day, shard, google_saved, google_deleted, google_change)
                VALUES ($1, $2::bigint, $3::integer, $4::integer, $5::integer, $6::integer)
                ON CONFLICT (template, day, shard) DO UPDATE
                    SET google_saved = install_days.google_saved + excluded.google_saved,
                    google_deleted = install_days.google_deleted + excluded.google_deleted,
                    google_change = install_days.google_change + excluded.google_change
                """,
                [
                    template, String(UTCDay(event.receivedAt).number), Self.shard(), saving ? "1" : "0",
                    saving ? "0" : "1", String(change),
                ])
            return .counted(template: template)
        }
    }

    package func publicImage(digest: String) throws -> PublicImage? {
        guard SQLiteStore.isDigestPrefix(digest) else { return nil }
        return try pool.withConnection { db in
            for table in ["pass_images", "template_files"] {
                // A range on the index: every digest that starts with the given hex digits (C collation).
                let r = try db.query(
                    """
                    SELECT path, bytes FROM \(table) WHERE content_digest COLLATE "C" >= $1
                        AND content_digest COLLATE "C" < $1 || 'g' LIMIT 1
                    """, [digest])
                if r.rowCount > 0 { return PublicImage(path: r.string(0, 0), bytes: r.bytes(0, 1)) }
            }
            return nil
        }
    }
}
