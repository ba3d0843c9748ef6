import Foundation

/// Distribution links (`pass_links`).
extension SQLiteStore {
    package func resolveLink(tokenHash: String) throws -> PassLinkInfo? {
        let nowSeconds = Self.seconds(now())
        return try pool.withConnection { db in
            try Self.selectLink(db, where: "token_hash = ?1", tokenHash, nowSeconds: nowSeconds)
        }
    }

    package func openLink(tokenHash: String) throws -> PassLinkTarget? {
        let nowSeconds = Self.seconds(now())
        return try pool.withConnection { db in
            try db.withStatement(
                """
                SELECT l.serial, l.expires_at, l.revoked_at, p.tag, p.voided
                FROM pass_links l JOIN passes p ON p.serial = l.serial WHERE l.token_hash = ?1
                """
            ) { s in
                try s.bind(1, tokenHash)
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

    package func link(serial: String) throws -> PassLinkInfo? {
        let nowSeconds = Self.seconds(now())
        return try pool.withConnection { db in
            try Self.selectLink(db, where: "serial = ?1", serial, nowSeconds: nowSeconds)
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
            return try Self.selectLink(db, where: "serial = ?1", serial, nowSeconds: nowSeconds)
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
            return try Self.selectLink(db, where: "serial = ?1", serial, nowSeconds: nowSeconds)
        }
    }

    /// Creates or replaces the link of `grant.serialNumber` (call inside a write transaction).
    static func upsertLink(_ db: SQLiteConnection, _ grant: PassLinkGrant, nowSeconds: Int64) throws {
        try db.withStatement(
            """
            INSERT INTO pass_links (serial, token_hash, created_at, expires_at, revoked_at)
            VALUES (?1, ?2, ?3, ?4, NULL)
            ON CONFLICT (serial) DO UPDATE SET token_hash = excluded.token_hash, created_at = excluded.created_at,
                expires_at = excluded.expires_at, revoked_at = NULL
            """
        ) { s in
            try s.bind(1, grant.serialNumber)
            try s.bind(2, grant.tokenHash)
            try s.bind(3, nowSeconds)
            if let expires = grant.expiresAt { try s.bind(4, seconds(expires)) } else { try s.bind(4, nil as String?) }
            try s.run()
        }
    }

    private static func selectLink(_ db: SQLiteConnection, where condition: String, _ value: String, nowSeconds: Int64)
        throws -> PassLinkInfo?
    {
        try db.withStatement(
            "SELECT serial, created_at, expires_at, revoked_at FROM pass_links WHERE \(condition)"
        ) { s in
            try s.bind(1, value)
            guard try s.step() else { return nil }
            return PassLinkInfo.row(
                serial: s.string(0), created: s.int64(1), expires: s.optionalString(2).flatMap { Int64($0) },
                revoked: s.optionalString(3).flatMap { Int64($0) }, nowSeconds: nowSeconds)
        }
    }
}
