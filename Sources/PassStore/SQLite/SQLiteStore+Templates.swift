import Foundation
import PassSigning

/// Template versions in SQLite (see `TemplateVersionStore`).
extension SQLiteStore: TemplateVersionStore {
    package func storeTemplateVersion(_ version: TemplateVersion) throws -> Bool {
        let nowSeconds = Self.seconds(now())
        return try pool.write { db in
            let inserted = try db.withStatement(
                """
                INSERT INTO template_versions (digest, designer, file_count, total_bytes, created_at)
                VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (digest) DO NOTHING
                """
            ) { s in
                try s.bind(1, version.digest)
                try s.bind(2, version.designer ? 1 : 0)
                try s.bind(3, version.files.count)
                try s.bind(4, version.totalBytes)
                try s.bind(5, nowSeconds)
                try s.run()
                return db.changes == 1
            }
            guard inserted else { return false }
            for (path, bytes) in version.files.sorted(by: { $0.key < $1.key }) {
                try db.withStatement(
                    "INSERT INTO template_files (digest, path, bytes, content_digest) VALUES (?1, ?2, ?3, ?4)"
                ) { s in
                    try s.bind(1, version.digest)
                    try s.bind(2, path)
                    try s.bind(3, blob: bytes)
                    try s.bind(4, SHA256Digest.hex(bytes))
                    try s.run()
                }
            }
            return true
        }
    }

    package func templateVersion(digest: String) throws -> TemplateVersion? {
        try pool.withConnection { db in
            let designer: Bool? = try db.withStatement("SELECT designer FROM template_versions WHERE digest = ?1") {
                s in
                try s.bind(1, digest)
                return try s.step() ? s.int64(0) != 0 : nil
            }
            guard let designer else { return nil }
            let files = try db.withStatement("SELECT path, bytes FROM template_files WHERE digest = ?1") { s in
                try s.bind(1, digest)
                var files: [String: [UInt8]] = [:]
                while try s.step() { files[s.string(0)] = s.blob(1) }
                return files
            }
            return TemplateVersion(storedDigest: digest, files: files, designer: designer)
        }
    }

    package func currentTemplate(name: String) throws -> PublishedTemplate? {
        try pool.withConnection { db in
            try db.withStatement("SELECT name, digest, published_at FROM templates WHERE name = ?1") { s in
                try s.bind(1, name)
                return try s.step() ? Self.published(s) : nil
            }
        }
    }

    @discardableResult
    package func publishTemplate(name: String, digest: String, onlyIfUnpublished: Bool) throws -> Bool {
        let nowSeconds = Self.seconds(now())
        let upsert =
            onlyIfUnpublished
            ? "ON CONFLICT (name) DO NOTHING"
            : "ON CONFLICT (name) DO UPDATE SET digest = excluded.digest, published_at = excluded.published_at"
        return try pool.write { db in
            try db.withStatement(
                "INSERT INTO templates (name, digest, published_at) VALUES (?1, ?2, ?3) \(upsert)"
            ) { s in
                try s.bind(1, name)
                try s.bind(2, digest)
                try s.bind(3, nowSeconds)
                try s.run()
                return db.changes == 1
            }
        }
    }

    package func publishedTemplates() throws -> [PublishedTemplate] {
        try pool.withConnection { db in
            try db.withStatement("SELECT name, digest, published_at FROM templates ORDER BY name") { s in
                var out: [PublishedTemplate] = []
                while try s.step() { out.append(Self.published(s)) }
                return out
            }
        }
    }

    package func templateUsage() throws -> [TemplateUsage] {
        try pool.withConnection { db in
            try db.withStatement(
                """
                SELECT p.template, count(*),
                    coalesce(sum((SELECT count(*) FROM registrations r
                        WHERE r.serial = p.serial AND r.pass_type = p.pass_type)), 0)
                FROM passes p GROUP BY p.template ORDER BY p.template
                """
            ) { s in
                var out: [TemplateUsage] = []
                while try s.step() {
                    out.append(TemplateUsage(template: s.string(0), passes: s.int(1), registrations: s.int(2)))
                }
                return out
            }
        }
    }

    private static func published(_ s: SQLiteStatement) -> PublishedTemplate {
        PublishedTemplate(
            name: s.string(0), digest: s.string(1), publishedAt: Date(timeIntervalSince1970: TimeInterval(s.int64(2))))
    }
}
