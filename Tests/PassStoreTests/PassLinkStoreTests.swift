import Foundation
import Testing
@testable import PassMint
@testable import PassStore
import PassMintTestSupport

/// `PassLinkStore` against both stores: links are found by their token's selector and checked by its hash (a token
/// from before selectors by its hash alone), and revoking, reissuing and expiring change what a token finds.
@Suite("PassLinkStore (SQLite and PostgreSQL)")
struct PassLinkStoreTests {
    typealias LinkedStore = any PassStore & PassLinkStore

    func linked(_ f: StoreFixture) -> LinkedStore { f.store as! LinkedStore }

    /// Stores pass `serial` with a link (a fresh token unless given); returns the token.
    @discardableResult
    func issue(_ store: LinkedStore, _ serial: String, token: LinkToken = .generate(), expiresAt: Date? = nil) throws
        -> LinkToken
    {
        try store.insertPasses(
            [samplePass(serial)],
            links: [PassLinkGrant(serialNumber: serial, key: token.key, expiresAt: expiresAt)])
        return token
    }

    @Test(
        "a link stored with its pass resolves by its token's key; an unknown token finds nothing",
        arguments: StoreBackend.all)
    func resolve(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        let store = linked(f)
        let a = try issue(store, "A")
        let b = try issue(store, "B")
        let found = try #require(try store.resolveLink(a.key))
        #expect(found.serialNumber == "A")
        #expect(found.state == .active)
        #expect(found.createdAt == Date(timeIntervalSince1970: f.clock.now.timeIntervalSince1970.rounded(.down)))
        #expect(found.expiresAt == nil && found.revokedAt == nil)
        #expect(try store.resolveLink(b.key)?.serialNumber == "B")
        #expect(try store.resolveLink(LinkToken.generate().key) == nil)
        // A's selector finds nothing without A's hash: a guessed secret part fails however the selector was
        // learned, and the selector of one link with the hash of another finds neither.
        #expect(try store.resolveLink(LinkKey(selector: a.key.selector, hash: LinkToken.generate().hash)) == nil)
        #expect(try store.openLink(LinkKey(selector: a.key.selector, hash: b.hash)) == nil)
        #expect(try store.resolveLink(LinkKey(selector: nil, hash: a.hash)) == nil)
        #expect(try store.resolveLink(LinkKey(selector: a.key.selector, hash: a.text)) == nil)
        #expect(try store.link(serial: "A") == found)
        let pass = try #require(try store.pass(serial: "A"))
        #expect(
            try store.openLink(a.key)
                == PassLinkTarget(serialNumber: "A", state: .active, tag: pass.tag, voided: false))
        #expect(try store.openLink(LinkToken.generate().key) == nil)
        #expect(try store.link(serial: "nope") == nil)
    }

    @Test("the database holds the token's SHA-256, never the token", arguments: StoreBackend.all)
    func onlyTheHashIsStored(backend: StoreBackend) throws {
        let dir = try TempDir()
        let token: LinkToken
        let dumped: String
        switch backend {
        case .sqlite:
            let path = dir.path("links.sqlite")
            token = try issue(try SQLiteStore(path: path), "A")
            dumped = try CLI.run("sqlite3", [path, ".dump"]).stdout
        case .postgres:
            let url = try TestPostgres.freshSchema()
            token = try issue(try PostgresStore(url: try PostgresURL(url), poolSize: 1), "A")
            dumped = try TestPostgres.psql(url, "SELECT serial || ' ' || token_hash FROM pass_links")
        }
        #expect(dumped.contains(token.hash), "\(dumped)")
        // Of the token only its selector (the second it was made and 64 random bits) is kept, never the 192
        // random bits after it.
        #expect(!dumped.contains(token.text))
        #expect(!dumped.contains(token.text.dropFirst(16)))
        #expect(token.hash.count == 64)
    }

    @Test("revoke stops the link; reissue gives a new token and the old one finds nothing", arguments: StoreBackend.all)
    func revokeAndReissue(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        let store = linked(f)
        let old = try issue(store, "A")
        f.clock.advance(10)
        let revoked = try #require(try store.revokeLink(serial: "A"))
        #expect(revoked.state == .revoked)
        #expect(revoked.revokedAt != nil)
        #expect(try store.resolveLink(old.key)?.state == .revoked)
        #expect(try store.openLink(old.key)?.state == .revoked)
        #expect(try store.revokeLink(serial: "nope") == nil)

        let new = LinkToken.generate()
        let expiry = f.clock.now.addingTimeInterval(3600)
        let reissued = try store.reissueLink(PassLinkGrant(serialNumber: "A", key: new.key, expiresAt: expiry))
        #expect(reissued.state == .active && reissued.revokedAt == nil)
        #expect(try store.resolveLink(old.key) == nil)
        let resolved = try #require(try store.resolveLink(new.key))
        #expect(resolved.state == .active)
        #expect(resolved.expiresAt == Date(timeIntervalSince1970: expiry.timeIntervalSince1970.rounded(.down)))
        #expect(throws: StoreError.passNotFound(serial: "nope")) {
            try store.reissueLink(PassLinkGrant(serialNumber: "nope", key: LinkToken.generate().key))
        }
    }

    @Test("a link expires by the store's clock; the expiry can be moved and cleared", arguments: StoreBackend.all)
    func expiry(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        let store = linked(f)
        let token = try issue(store, "A", expiresAt: f.clock.now.addingTimeInterval(60))
        #expect(try store.resolveLink(token.key)?.state == .active)
        f.clock.advance(61)
        #expect(try store.resolveLink(token.key)?.state == .expired)
        #expect(try store.openLink(token.key)?.state == .expired)
        #expect(try store.setLinkExpiry(serial: "A", expiresAt: nil)?.state == .active)
        #expect(try store.resolveLink(token.key)?.expiresAt == nil)
        #expect(try store.setLinkExpiry(serial: "A", expiresAt: f.clock.now)?.state == .expired)
        #expect(try store.setLinkExpiry(serial: "nope", expiresAt: nil) == nil)
    }

    @Test("opening a link sees the pass's current tag and voided flag", arguments: StoreBackend.all)
    func openFollowsThePass(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        let store = linked(f)
        let token = try issue(store, "A")
        let before = try #require(try store.openLink(token.key))
        let (updated, _) = try store.updateRecord(serial: "A", record: ["tier": "Gold"])
        #expect(try store.openLink(token.key)?.tag == updated.tag)
        #expect(updated.tag > before.tag)
        var voided = samplePass("A")
        voided.voided = true
        try store.insertPasses([voided])
        #expect(try store.openLink(token.key)?.voided == true)
    }

    @Test("storing a pass again with a link replaces its link; without one keeps it", arguments: StoreBackend.all)
    func reinsert(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        let store = linked(f)
        let first = try issue(store, "A")
        _ = try store.revokeLink(serial: "A")
        let second = try issue(store, "A")
        #expect(try store.resolveLink(first.key) == nil)
        #expect(try store.resolveLink(second.key)?.state == .active)
        try store.insertPasses([samplePass("A")])
        #expect(try store.resolveLink(second.key)?.serialNumber == "A")
    }

    /// A token as PassMint issued them before selectors: 32 random bytes, 43 characters.
    static func selectorlessToken() throws -> LinkToken {
        try #require(LinkToken(parsing: Base64URL.encode((0..<32).map { _ in UInt8.random(in: 0...255) })))
    }

    @Test(
        "a link issued before selectors (43 characters, kept by its hash alone) opens by its hash, beside new ones",
        arguments: StoreBackend.all)
    func selectorless(backend: StoreBackend) throws {
        let old = try Self.selectorlessToken()
        #expect(old.key.selector == nil)
        let f = try StoreFixture(backend)
        let store = linked(f)
        try issue(store, "OLD", token: old)
        let new = try issue(store, "NEW")
        #expect(try store.resolveLink(old.key)?.serialNumber == "OLD")
        #expect(try store.openLink(old.key)?.serialNumber == "OLD")
        #expect(try store.resolveLink(new.key)?.serialNumber == "NEW")
        // The old hash under a selector, or the new hash without one, finds nothing.
        #expect(try store.resolveLink(LinkKey(selector: new.key.selector, hash: old.hash)) == nil)
        #expect(try store.resolveLink(LinkKey(selector: nil, hash: new.hash)) == nil)
    }

    @Test("a SQLite store made before selectors keeps its links working when it gains them (migration 15)")
    func selectorlessMigrated() throws {
        let directory = try TempDir()
        let path = directory.path("v14.sqlite")
        let old = try Self.selectorlessToken()
        do {
            let db = try SQLiteConnection(path: path, busyTimeoutMilliseconds: 1000)
            for migration in SQLiteSchema.migrations where migration.version <= 14 {
                try db.execute(migration.sql)
                try SQLiteSchema.swiftSteps[migration.version]?(db)
            }
            try db.execute(
                """
                PRAGMA user_version = 14;
                INSERT INTO passes (serial, pass_type, template, record, auth_token, tag, modified_at, voided)
                VALUES ('OLD', 'pass.t', 'Templates/status', '{"tier":"Gold"}', 'tok', 1, 100, 0);
                INSERT INTO pass_links (serial, token_hash, created_at, expires_at, revoked_at)
                VALUES ('OLD', '\(old.hash)', 100, NULL, NULL);
                """)
        }
        let store = try SQLiteStore(path: path)
        #expect(try store.openLink(old.key)?.serialNumber == "OLD")
        let new = try issue(store, "NEW")
        #expect(try store.openLink(new.key)?.serialNumber == "NEW")
        // Found through the selector's index and, for the old link, the index of selectorless hashes: no scan.
        let plans = try CLI.run(
            "sqlite3",
            [
                path,
                "EXPLAIN QUERY PLAN SELECT serial FROM pass_links WHERE selector = 'x' AND token_hash = 'y'; "
                    + "EXPLAIN QUERY PLAN SELECT serial FROM pass_links WHERE selector IS NULL AND token_hash = 'y';",
            ]
        ).stdout
        #expect(!plans.contains("SCAN"), "\(plans)")
        #expect(plans.contains("pass_links_selectorless"), "\(plans)")
    }

    @Test(
        "migrating a SQLite store to PostgreSQL keeps every link working, revoked and expiring ones as they were",
        .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
    func transfer() throws {
        let source = try StoreFixture(.sqlite)
        let store = linked(source)
        let active = try issue(store, "A")
        let revoked = try issue(store, "B")
        _ = try store.revokeLink(serial: "B")
        let expiring = try issue(store, "C", expiresAt: source.clock.now.addingTimeInterval(60))
        try store.insertPasses([samplePass("D")])

        let target = try PostgresStore(url: try PostgresTestServer.freshSchema(), now: source.clock.closure)
        let counts = try StoreTransfer.copy(from: source.sqlite, to: target)
        #expect(counts.rows.first { $0.table == "pass_links" }?.count == 3)
        for token in [active, revoked, expiring] {
            #expect(try target.resolveLink(token.key) == store.resolveLink(token.key))
        }
        #expect(try target.resolveLink(active.key)?.state == .active)
        #expect(try target.resolveLink(revoked.key)?.state == .revoked)
        source.clock.advance(61)
        #expect(try target.resolveLink(expiring.key)?.state == .expired)
        #expect(try target.link(serial: "D") == nil)
    }
}
