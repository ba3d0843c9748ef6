import Foundation
import PassMint

/// Distribution links (`pass_links`).
extension PostgresStore {
    static let linkColumns = "serial, created_at, expires_at, revoked_at"

    package func resolveLink(_ key: LinkKey) throws -> PassLinkInfo? {
        let nowSeconds = RecordCoding.seconds(now())
        return try pool.withConnection { db in
            Self.linkInfo(
                try db.query(
                    "SELECT \(Self.linkColumns) FROM pass_links WHERE \(Self.linkCondition(key, table: "pass_links"))",
                    Self.parameters(key)),
                nowSeconds: nowSeconds)
        }
    }

    package func openLink(_ key: LinkKey) throws -> PassLinkTarget? {
        let nowSeconds = RecordCoding.seconds(now())
        return try pool.withConnection { db in
            let result = try db.query(
                """
                SELECT l.serial, l.expires_at, l.revoked_at, p.tag, p.voided
                FROM pass_links l JOIN passes p ON p.serial = l.serial WHERE \(Self.linkCondition(key, table: "l"))
                """, Self.parameters(key))
            guard result.rowCount > 0 else { return nil }
            return PassLinkTarget(
                serialNumber: result.string(0, 0),
                state: PassLinkInfo.state(
                    expiresAt: result.optionalString(0, 1).flatMap { Int64($0) },
                    revokedAt: result.optionalString(0, 2).flatMap { Int64($0) }, nowSeconds: nowSeconds),
                tag: result.int64(0, 3), voided: result.bool(0, 4))
        }
    }

    /// The condition that finds the link of `key` in `table` ($1 the hash, $2 the selector when there is one): by
    /// the selector's unique index, or for a token without a selector by the index of those links' hashes.
    private static func linkCondition(_ key: LinkKey, table: String) -> String {
        key.selector == nil
            ? "\(table).selector IS NULL AND \(table).token_hash = $1"
            : "\(table).selector = $2 AND \(table).token_hash = $1"
    }

    private static func parameters(_ key: LinkKey) -> [String?] { [key.hash] + (key.selector.map { [$0] } ?? []) }

    package func link(serial: String) throws -> PassLinkInfo? {
        let nowSeconds = RecordCoding.seconds(now())
        return try pool.withConnection { db in
            Self.linkInfo(
                try db.query("SELECT \(Self.linkColumns) FROM pass_links WHERE serial = $1", [serial]),
                nowSeconds: nowSeconds)
        }
    }

    package func reissueLink(_ grant: PassLinkGrant) throws -> PassLinkInfo {
        let nowSeconds = RecordCoding.seconds(now())
        return try pool.transaction { db in
            // The pass row is locked, so a concurrent delete of the pass cannot leave an orphan link.
            let known = try db.query("SELECT 1 FROM passes WHERE serial = $1 FOR UPDATE", [grant.serialNumber])
            guard known.rowCount > 0 else { throw StoreError.passNotFound(serial: grant.serialNumber) }
            try Self.upsertLink(db, grant, nowSeconds: String(nowSeconds))
            return PassLinkInfo.row(
                serial: grant.serialNumber, created: nowSeconds, expires: grant.expiresAt.map(RecordCoding.seconds),
                revoked: nil, nowSeconds: nowSeconds)
        }
    }

    package func revokeLink(serial: String) throws -> PassLinkInfo? {
        let nowSeconds = RecordCoding.seconds(now())
        return try pool.withConnection { db in
            Self.linkInfo(
                try db.query(
                    """
                    UPDATE pass_links SET revoked_at = coalesce(revoked_at, $2) WHERE serial = $1
                    RETURNING \(Self.linkColumns)
                    """, [serial, String(nowSeconds)]),
                nowSeconds: nowSeconds)
        }
    }

    package func setLinkExpiry(serial: String, expiresAt: Date?) throws -> PassLinkInfo? {
        let nowSeconds = RecordCoding.seconds(now())
        return try pool.withConnection { db in
            Self.linkInfo(
                try db.query(
                    "UPDATE pass_links SET expires_at = $2 WHERE serial = $1 RETURNING \(Self.linkColumns)",
                    [serial, expiresAt.map { String(RecordCoding.seconds($0)) }]),
                nowSeconds: nowSeconds)
        }
    }

    /// Creates or replaces the links of `grants` (distinct serials) in one statement (call inside a transaction).
    static func upsertLinks(_ db: PGConnection, _ grants: [PassLinkGrant], nowSeconds: String) throws {
        guard !grants.isEmpty else { return }
        try db.query(
            """
            INSERT INTO pass_links (serial, token_hash, created_at, expires_at, revoked_at, selector)
            SELECT serial, token_hash, $3::bigint, expires_at, NULL, selector
            FROM unnest($1::text[], $2::text[], $4::bigint[], $5::text[])
                AS i(serial, token_hash, expires_at, selector)
            ON CONFLICT (serial) DO UPDATE SET token_hash = excluded.token_hash, created_at = excluded.created_at,
                expires_at = excluded.expires_at, revoked_at = NULL, selector = excluded.selector
            """,
            [
                textArray(grants.map(\.serialNumber)), textArray(grants.map(\.key.hash)), nowSeconds,
                textArray(grants.map { $0.expiresAt.map { String(RecordCoding.seconds($0)) } }),
                textArray(grants.map(\.key.selector)),
            ])
    }

    /// Creates or replaces the link of `grant.serialNumber` (call inside a transaction).
    static func upsertLink(_ db: PGConnection, _ grant: PassLinkGrant, nowSeconds: String) throws {
        try upsertLinks(db, [grant], nowSeconds: nowSeconds)
    }

    private static func linkInfo(_ result: PGResult, nowSeconds: Int64) -> PassLinkInfo? {
        guard result.rowCount > 0 else { return nil }
        return PassLinkInfo.row(
            serial: result.string(0, 0), created: result.int64(0, 1),
            expires: result.optionalString(0, 2).flatMap { Int64($0) },
            revoked: result.optionalString(0, 3).flatMap { Int64($0) }, nowSeconds: nowSeconds)
    }
}
