import Foundation

/// Template versions in PostgreSQL (see `TemplateVersionStore`).
extension PostgresStore: TemplateVersionStore {
    package func storeTemplateVersion(_ version: TemplateVersion) throws -> Bool {
        let nowSeconds = String(RecordCoding.seconds(now()))
        return try pool.transaction { db in
            // Two processes storing the same new version at once: the second waits on the row and inserts nothing.
            let inserted =
                try db.query(
                    """
                    INSERT INTO template_versions (digest, designer, file_count, total_bytes, created_at)
                    VALUES ($1, $2, $3, $4, $5) ON CONFLICT (digest) DO NOTHING
                    """,
                    [
                        version.digest, version.designer ? "true" : "false", String(version.files.count),
                        String(version.totalBytes), nowSeconds,
                    ]
                ).affectedRows == 1
            guard inserted else { return false }
            for (path, bytes) in version.files.sorted(by: { $0.key < $1.key }) {
                try db.query(
                    "INSERT INTO template_files (digest, path, bytes) VALUES ($1, $2, $3)",
                    [version.digest, path, Self.hexBytea(bytes)])
            }
            return true
        }
    }

    package func templateVersion(digest: String) throws -> TemplateVersion? {
        try pool.withConnection { db in
            let version = try db.query("SELECT designer FROM template_versions WHERE digest = $1", [digest])
            guard version.rowCount > 0 else { return nil }
            let rows = try db.query("SELECT path, bytes FROM template_files WHERE digest = $1", [digest])
            var files: [String: [UInt8]] = [:]
            for row in 0..<rows.rowCount { files[rows.string(row, 0)] = rows.bytes(row, 1) }
            return TemplateVersion(storedDigest: digest, files: files, designer: version.bool(0, 0))
        }
    }

    package func currentTemplate(name: String) throws -> PublishedTemplate? {
        try pool.withConnection { db in
            let result = try db.query("SELECT name, digest, published_at FROM templates WHERE name = $1", [name])
            return result.rowCount > 0 ? Self.published(result, row: 0) : nil
        }
    }

    @discardableResult
    package func publishTemplate(name: String, digest: String, onlyIfUnpublished: Bool) throws -> Bool {
        let nowSeconds = String(RecordCoding.seconds(now()))
        let upsert =
            onlyIfUnpublished
            ? "ON CONFLICT (name) DO NOTHING"
            : "ON CONFLICT (name) DO UPDATE SET digest = excluded.digest, published_at = excluded.published_at"
        return try pool.withConnection { db in
            try db.query(
                "INSERT INTO templates (name, digest, published_at) VALUES ($1, $2, $3) \(upsert)",
                [name, digest, nowSeconds]
            ).affectedRows == 1
        }
    }

    package func publishedTemplates() throws -> [PublishedTemplate] {
        try pool.withConnection { db in
            let result = try db.query("SELECT name, digest, published_at FROM templates ORDER BY name")
            return (0..<result.rowCount).map { Self.published(result, row: $0) }
        }
    }

    package func templateUsage() throws -> [TemplateUsage] {
        try pool.withConnection { db in
            let result = try db.query(
                """
                SELECT p.template, count(*),
                    coalesce(sum((SELECT count(*) FROM registrations r
                        WHERE r.serial = p.serial AND r.pass_type = p.pass_type)), 0)
                FROM passes p GROUP BY p.template ORDER BY p.template
                """)
            return (0..<result.rowCount).map { row in
                TemplateUsage(
                    template: result.string(row, 0), passes: result.int(row, 1), registrations: result.int(row, 2))
            }
        }
    }

    private static func published(_ result: PGResult, row: Int) -> PublishedTemplate {
        PublishedTemplate(
            name: result.string(row, 0), digest: result.string(row, 1),
            publishedAt: Date(timeIntervalSince1970: TimeInterval(result.int64(row, 2))))
    }
}
