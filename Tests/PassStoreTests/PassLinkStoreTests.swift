import Foundation
import Testing
@testable import PassMint
@testable import PassStore
import PassMintTestSupport

/// `PassLinkStore` against both stores: links are found by their token's hash only, and revoking, reissuing and
/// expiring change what the hash finds.
@Suite("PassLinkStore (SQLite and PostgreSQL)")
struct PassLinkStoreTests {
    typealias LinkedStore = any PassStore & PassLinkStore

    func linked(_ f: StoreFixture) -> LinkedStore { f.store as! LinkedStore }

    /// Stores pass `serial` with a fresh link; returns the token.
    func issue(_ store: LinkedStore, _ serial: String, expiresAt: Date? = nil) throws -> LinkToken {
        let token = LinkToken.generate()
        try store.insertPasses(
            [samplePass(serial)],
            links: [PassLinkGrant(serialNumber: serial, tokenHash: token.hash, expiresAt: expiresAt)])
        return token
    }

    @Test(
        "a link stored with its pass resolves by its hash; an unknown hash finds nothing", arguments: StoreBackend.all)
    func resolve(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        let store = linked(f)
        let a = try issue(store, "A")
        let b = try issue(store, "B")
        let found = try #require(try store.resolveLink(tokenHash: a.hash))
        #expect(found.serialNumber == "A")
        #expect(found.state == .active)
        #expect(found.createdAt == Date(timeIntervalSince1970: f.clock.now.timeIntervalSince1970.rounded(.down)))
        #expect(found.expiresAt == nil && found.revokedAt == nil)
        #expect(try store.resolveLink(tokenHash: b.hash)?.serialNumber == "B")
        #expect(try store.resolveLink(tokenHash: LinkToken.generate().hash) == nil)
        // The token's text is not a key: only its hash is.
        #expect(try store.resolveLink(tokenHash: a.text) == nil)
        #expect(try store.link(serial: "A") == found)
        let pass = try #require(try store.pass(serial: "A"))
        #expect(
            try store.openLink(tokenHash: a.hash)
                == PassLinkTarget(serialNumber: "A", state: .active, tag: pass.tag, voided: false))
        #expect(try store.openLink(tokenHash: LinkToken.generate().hash) == nil)
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
        #expect(!dumped.contains(token.text))
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
        #expect(try store.resolveLink(tokenHash: old.hash)?.state == .revoked)
        #expect(try store.openLink(tokenHash: old.hash)?.state == .revoked)
        #expect(try store.revokeLink(serial: "nope") == nil)

        let new = LinkToken.generate()
        let expiry = f.clock.now.addingTimeInterval(3600)
        let reissued = try store.reissueLink(PassLinkGrant(serialNumber: "A", tokenHash: new.hash, expiresAt: expiry))
        #expect(reissued.state == .active && reissued.revokedAt == nil)
        #expect(try store.resolveLink(tokenHash: old.hash) == nil)
        let resolved = try #require(try store.resolveLink(tokenHash: new.hash))
        #expect(resolved.state == .active)
        #expect(resolved.expiresAt == Date(timeIntervalSince1970: expiry.timeIntervalSince1970.rounded(.down)))
        #expect(throws: StoreError.passNotFound(serial: "nope")) {
            try store.reissueLink(PassLinkGrant(serialNumber: "nope", tokenHash: LinkToken.generate().hash))
        }
    }

    @Test("a link expires by the store's clock; the expiry can be moved and cleared", arguments: StoreBackend.all)
    func expiry(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        let store = linked(f)
        let token = try issue(store, "A", expiresAt: f.clock.now.addingTimeInterval(60))
        #expect(try store.resolveLink(tokenHash: token.hash)?.state == .active)
        f.clock.advance(61)
        #expect(try store.resolveLink(tokenHash: token.hash)?.state == .expired)
        #expect(try store.openLink(tokenHash: token.hash)?.state == .expired)
        #expect(try store.setLinkExpiry(serial: "A", expiresAt: nil)?.state == .active)
        #expect(try store.resolveLink(tokenHash: token.hash)?.expiresAt == nil)
        #expect(try store.setLinkExpiry(serial: "A", expiresAt: f.clock.now)?.state == .expired)
        #expect(try store.setLinkExpiry(serial: "nope", expiresAt: nil) == nil)
    }

    @Test("opening a link sees the pass's current tag and voided flag", arguments: StoreBackend.all)
    func openFollowsThePass(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        let store = linked(f)
        let token = try issue(store, "A")
        let before = try #require(try store.openLink(tokenHash: token.hash))
        let (updated, _) = try store.updateRecord(serial: "A", record: ["tier": "Gold"])
        #expect(try store.openLink(tokenHash: token.hash)?.tag == updated.tag)
        #expect(updated.tag > before.tag)
        var voided = samplePass("A")
        voided.voided = true
        try store.insertPasses([voided])
        #expect(try store.openLink(tokenHash: token.hash)?.voided == true)
    }

    @Test("storing a pass again with a link replaces its link; without one keeps it", arguments: StoreBackend.all)
    func reinsert(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        let store = linked(f)
        let first = try issue(store, "A")
        _ = try store.revokeLink(serial: "A")
        let second = try issue(store, "A")
        #expect(try store.resolveLink(tokenHash: first.hash) == nil)
        #expect(try store.resolveLink(tokenHash: second.hash)?.state == .active)
        try store.insertPasses([samplePass("A")])
        #expect(try store.resolveLink(tokenHash: second.hash)?.serialNumber == "A")
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
            #expect(try target.resolveLink(tokenHash: token.hash) == store.resolveLink(tokenHash: token.hash))
        }
        #expect(try target.resolveLink(tokenHash: active.hash)?.state == .active)
        #expect(try target.resolveLink(tokenHash: revoked.hash)?.state == .revoked)
        source.clock.advance(61)
        #expect(try target.resolveLink(tokenHash: expiring.hash)?.state == .expired)
        #expect(try target.link(serial: "D") == nil)
    }
}
