import Foundation
import PassMint

/// Distribution links (`pass_links`).
extension SQLiteStore {
    package func resolveLink(_ key: LinkKey) throws -> PassLinkInfo? {
        let nowSeconds = Self.seconds(now())
        return try pool.withConnection { db in
            try Self.selectLink(db, where: Self.linkCondition(key, table: "pass_links"), nowSeconds: nowSeconds) {
                try Self.bind(key, to: $0)
            }
        }
    }

    package func openLink(_ key: LinkKey) throws -> PassLinkTarget? {
        let nowSeconds = Self.seconds(now())
        return try pool.withConnection { db in
            try db.withStatement(
                """
                SELECT l.serial, l.expires_at, l.revoked_at, p.tag, p.voided
                FROM pass_links l JOIN passes p ON p.serial = l.serial WHERE \(Self.linkCondition(key, table: "l"))
                """
            ) { s in
                try Self.bind(key, to: s)
                guard try s.step() else { return nil }
                return PassLinkTarget(
                    serialNumber: s.string(0),
                    state: PassLinkInfo.state(
                        expiresAt: s.optionalString(1).flatMap { Int64($0) },
                        revokedAt: s.optionalString(2).flatMap { Int64($0) }, nowSeconds: nowSeconds),
                    tag: s.int64(3), voided: s.int64(4) != 0)
            }
        }
    }

    /// The condition that finds the link of `key` in `table` (?1 the selector, ?2 the hash): by the selector's
    /// unique index, or for a token without a selector by the index of those links' hashes.
    private static func linkCondition(_ key: LinkKey, table: String) -> String {
        key.selector == nil
            ? "\(table).selector IS NULL AND \(table).token_hash = ?2"
            : "\(table).selector = ?1 AND \(table).token_hash = ?2"
    }

    private static func bind(_ key: LinkKey, to s: SQLiteStatement) throws {
        try s.bind(1, key.selector)
        try s.bind(2, key.hash)
    }

    package func link(serial: String) throws -> PassLinkInfo? {
        let nowSeconds = Self.seconds(now())
        return try pool.withConnection { db in
            try Self.selectLink(db, where: "serial = ?1", nowSeconds: nowSeconds) { try $0.bind(1, serial) }
        }
    }

    package func reissueLink(_ grant: PassLinkGrant) throws -> PassLinkInfo {
        let nowSeconds = Self.seconds(now())
        return try pool.write { db in
            let known = try db.withStatement("SELECT 1 FROM passes WHERE serial = ?1") { s in
                try s.bind(1, grant.serialNumber)
                return try s.step()
            }
            guard known else { throw StoreError.passNotFound(serial: grant.serialNumber) }
            try Self.upsertLink(db, grant, nowSeconds: nowSeconds)
            return PassLinkInfo.row(
                serial: grant.serialNumber, created: nowSeconds, expires: grant.expiresAt.map(Self.seconds),
                revoked: nil, nowSeconds: nowSeconds)
        }
    }

    package func revokeLink(serial: String) throws -> PassLinkInfo? {
        let nowSeconds = Self.seconds(now())
        return try pool.write { db in
            try db.withStatement("UPDATE pass_links SET revoked_at = ?2 WHERE serial = ?1 AND revoked_at IS NULL") {
                s in
                try s.bind(1, serial)
                try s.bind(2, nowSeconds)
                try s.run()
            }
            return try Self.selectLink(db, where: "serial = ?1", nowSeconds: nowSeconds) { try $0.bind(1, serial) }
        }
    }

    package func setLinkExpiry(serial: String, expiresAt: Date?) throws -> PassLinkInfo? {
        let nowSeconds = Self.seconds(now())
        return try pool.write { db in
            try db.withStatement("UPDATE pass_links SET expires_at = ?2 WHERE serial = ?1") { s in
                try s.bind(1, serial)
                if let expiresAt { try s.bind(2, Self.seconds(expiresAt)) } else { try s.bind(2, nil as String?) }
                try s.run()
            }
            return try Self.selectLink(db, where: "serial = ?1", nowSeconds: nowSeconds) { try $0.bind(1, serial) }
        }
    }

    /// Creates or replaces the link of `grant.serialNumber` (call inside a write transaction).
    static func upsertLink(_ db: SQLiteConnection, _ grant: PassLinkGrant, nowSeconds: Int64) throws {
        try db.withStatement(
            """
            INSERT INTO pass_links (serial, token_hash, created_at, expires_at, revoked_at, selector)
            VALUES (?1, ?2, ?3, ?4, NULL, ?5)
            ON CONFLICT (serial) DO UPDATE SET token_hash = excluded.token_hash, created_at = excluded.created_at,
                expires_at = excluded.expires_at, revoked_at = NULL, selector = excluded.selector
            """
        ) { s in
            try s.bind(1, grant.serialNumber)
            try s.bind(2, grant.key.hash)
            try s.bind(3, nowSeconds)
            if let expires = grant.expiresAt { try s.bind(4, seconds(expires)) } else { try s.bind(4, nil as String?) }
            try s.bind(5, grant.key.selector)
            try s.run()
        }
    }

    private static func selectLink(
        _ db: SQLiteConnection, where condition: String, nowSeconds: Int64, bind: (SQLiteStatement) throws -> Void
    ) throws -> PassLinkInfo? {
        try db.withStatement(
            "SELECT serial, created_at, expires_at, revoked_at FROM pass_links WHERE \(condition)"
        ) { s in
            try bind(s)
            guard try s.step() else { return nil }
            return PassLinkInfo.row(
                serial: s.string(0), created: s.int64(1), expires: s.optionalString(2).flatMap { Int64($0) },
                revoked: s.optionalString(3).flatMap { Int64($0) }, nowSeconds: nowSeconds)
        }
    }
}
