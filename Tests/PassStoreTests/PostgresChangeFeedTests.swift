import Foundation
import Synchronization
import Testing
@testable import PassStore
import PassMintTestSupport

/// The read caches of a listening `PostgresStore` (what `serve` opens) and the pusher wake-up, across two
/// instances on one database: what one instance commits, the other serves within the notification latency.
@Suite("PostgreSQL change notifications", .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresChangeFeedTests {
    let type = "pass.com.example.loyalty"
    /// Far longer than a notification takes on loopback, far shorter than anything that would pass by polling.
    static let bound: TimeInterval = 2

    /// A listening store (the one under test), a second instance that writes, and a raw connection for
    /// writes no PassMint instance makes.
    struct Pair {
        let url: PostgresURL
        let reader: PostgresStore
        let writer: PostgresStore
        let sql: PGConnection

        init(writerListens: Bool = false) throws {
            url = try PostgresTestServer.freshSchema()
            reader = try PostgresStore(url: url, poolSize: 2, listensForChanges: true)
            writer = try PostgresStore(url: url, poolSize: 2, listensForChanges: writerListens)
            sql = try PGConnection(url: url.connectionString, server: url.description)
            let listening = waitUntil(timeout: 10) { reader.isListeningForChanges }
            try #require(listening, "the reader never started listening")
        }

        /// Returns once the reader has applied the notifications of everything committed so far (a marker sent
        /// now arrives after them), so what it caches next is not dropped by a late one.
        func settle() throws {
            let marker = "settle-\(UUID().uuidString)"
            let payload = try sql.query("SELECT current_schema() || ' m ' || $1::text", [marker]).string(0, 0)
            try sql.query("SELECT pg_notify('passmint_changes', $1)", [payload])
            let applied = waitUntil(timeout: 10) { reader.changes?.lastPayload == payload }
            try #require(applied, "the reader never received its marker")
        }

        /// Changes a pass's tag behind every instance's back: no trigger fires, so no notification is sent.
        /// Whatever the reader answers afterwards, if it is not this tag, came from its cache.
        func silentlyRetag(_ serial: String, to tag: Int64) throws {
            try sql.transaction {
                try sql.execute("ALTER TABLE passes DISABLE TRIGGER passes_notify")
                try sql.query("UPDATE passes SET tag = $2 WHERE serial = $1", [serial, String(tag)])
                try sql.execute("ALTER TABLE passes ENABLE TRIGGER passes_notify")
            }
        }

        /// Stores pass `serial`, lets the reader cache its version, then retags it silently (`silentlyRetag`) and
        /// checks the reader still answers the cached version; returns that version.
        func cachedThenSilentlyRetagged(_ serial: String, passType: String, to tag: Int64) throws -> PassVersion {
            try writer.insertPasses([samplePass(serial)])
            try settle()
            let cached = try #require(try reader.passVersion(passType: passType, serial: serial))
            try silentlyRetag(serial, to: tag)
            #expect(try reader.passVersion(passType: passType, serial: serial) == cached)
            return cached
        }
    }

    @Test("a cached version is served until a notification says otherwise; another instance's update replaces it")
    func versionAcrossInstances() throws {
        let p = try Pair()
        // Cached: the silent change is not seen (this is what saves the round trip of a 304).
        let first = try p.cachedThenSilentlyRetagged("A", passType: type, to: 9_000_000)
        #expect(try p.reader.passVersion(passType: "pass.other", serial: "A") == nil)

        let (updated, _) = try p.writer.updateRecord(serial: "A", record: ["tier": "Gold"])
        let seen = try waitUntil(timeout: Self.bound) {
            try p.reader.passVersion(passType: type, serial: "A")?.tag == updated.tag
        }
        #expect(seen, "the reader still served tag \(first.tag) after another instance committed \(updated.tag)")
        #expect(
            try p.reader.passVersion(passType: type, serial: "A")?.modifiedAtSeconds
                == Int64(updated.modifiedAt.timeIntervalSince1970))
    }

    @Test("a write through psql (no PassMint involved) reaches the cache too; a new pass is found at once")
    func externalWriter() throws {
        let p = try Pair()
        try p.writer.insertPasses([samplePass("A")])
        _ = try #require(try p.reader.passVersion(passType: type, serial: "A"))
        try p.sql.execute(
            "UPDATE passes SET tag = nextval('pass_tag'), auth_token = 'rotated-token' WHERE serial = 'A'")
        let seen = try waitUntil(timeout: Self.bound) {
            try p.reader.passVersion(passType: type, serial: "A")?.authenticationToken == "rotated-token"
        }
        #expect(seen)
        // Unknown serials are never cached as absent: inserted elsewhere, the reader finds it on the next call.
        #expect(try p.reader.passVersion(passType: type, serial: "B") == nil)
        try p.writer.insertPasses([samplePass("B")])
        #expect(try p.reader.passVersion(passType: type, serial: "B") != nil)
    }

    @Test("an instance reads its own writes at once, without waiting for its notification")
    func ownWrites() throws {
        let p = try Pair()
        try p.reader.insertPasses([samplePass("A")])
        _ = try #require(try p.reader.passVersion(passType: type, serial: "A"))
        _ = try p.reader.updatedSerials(device: "d1", passType: type, since: nil)
        let (updated, _) = try p.reader.updateRecord(serial: "A", record: ["tier": "Gold"])
        #expect(try p.reader.passVersion(passType: type, serial: "A")?.tag == updated.tag)
        _ = try p.reader.register(device: "d1", passType: type, serial: "A", pushToken: "t1", tag: 1)
        #expect(try p.reader.updatedSerials(device: "d1", passType: type, since: nil)?.serials == ["A"])
        #expect(try p.reader.unregister(device: "d1", passType: type, serial: "A") != nil)
        #expect(try p.reader.updatedSerials(device: "d1", passType: type, since: nil) == nil)
    }

    @Test("a cached registration list follows registrations and pass updates made by another instance")
    func listAcrossInstances() throws {
        let p = try Pair()
        try p.writer.insertPasses([samplePass("A"), samplePass("B")])
        _ = try p.writer.register(device: "d1", passType: type, serial: "A", pushToken: "t1", tag: 1)
        try p.settle()
        let first = try #require(try p.reader.updatedSerials(device: "d1", passType: type, since: nil))
        #expect(first.serials == ["A"])
        try p.silentlyRetag("A", to: 0)  // older than anything below, so `since` filters it out further down
        #expect(try p.reader.updatedSerials(device: "d1", passType: type, since: nil)?.lastUpdated == first.lastUpdated)

        _ = try p.writer.register(device: "d1", passType: type, serial: "B", pushToken: "t1", tag: 1)
        let registered = try waitUntil(timeout: Self.bound) {
            try p.reader.updatedSerials(device: "d1", passType: type, since: nil)?.serials.sorted() == ["A", "B"]
        }
        #expect(registered)
        // `since` filters the cached list as the query would: only what changed after it.
        let current = try #require(try p.reader.updatedSerials(device: "d1", passType: type, since: nil))
        #expect(try p.reader.updatedSerials(device: "d1", passType: type, since: current.lastUpdated) == nil)
        let (updated, _) = try p.writer.updateRecord(serial: "B", record: ["tier": "Gold"])
        let changed = try waitUntil(timeout: Self.bound) {
            let result = try p.reader.updatedSerials(device: "d1", passType: type, since: current.lastUpdated)
            return result?.serials == ["B"] && result?.lastUpdated == updated.tag
        }
        #expect(changed)
        #expect(try p.writer.unregister(device: "d1", passType: type, serial: "A") != nil)
        let unregistered = try waitUntil(timeout: Self.bound) {
            try p.reader.updatedSerials(device: "d1", passType: type, since: nil)?.serials == ["B"]
        }
        #expect(unregistered)
    }

    @Test("a device's first registration (which sends no notification) is listed at once: empty lists are not cached")
    func firstRegistration() throws {
        let p = try Pair()
        try p.writer.insertPasses([samplePass("A")])
        #expect(try p.reader.updatedSerials(device: "new", passType: type, since: nil) == nil)
        _ = try p.writer.register(device: "new", passType: type, serial: "A", pushToken: "t1", tag: 1)
        #expect(try p.reader.updatedSerials(device: "new", passType: type, since: nil)?.serials == ["A"])
    }

    @Test("two first registrations of one device at once: the one committing second notifies")
    func concurrentFirstRegistrations() throws {
        let p = try Pair()
        try p.writer.insertPasses([samplePass("A"), samplePass("B")])
        let listener = try PGConnection(url: p.url.connectionString, server: p.url.description)
        try listener.execute("LISTEN \(PostgresChangeFeed.channel)")
        let schema = try listener.execute("SELECT current_schema()").string(0, 0)
        let first = try PGConnection(url: p.url.connectionString, server: p.url.description)
        let insert = "INSERT INTO registrations (device, pass_type, serial, created_at) VALUES ('d1', $1, $2, 0)"
        try first.execute("BEGIN")
        try first.query(insert, [type, "A"])
        // The second runs while the first is open; without serialisation neither would see the other.
        let done = DispatchSemaphore(value: 0)
        let failure = Mutex<String?>(nil)
        let url = p.url, type = self.type
        Thread {
            do {
                let second = try PGConnection(url: url.connectionString, server: url.description)
                try second.query(insert, [type, "B"])
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
            done.signal()
        }.start()
        // Held back by the first's per-device lock until it commits (a condition, not a sleep).
        let waiting = try waitUntil(timeout: 10) {
            try p.sql.execute(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = 20557 AND NOT granted"
            ).int(0, 0) > 0
        }
        #expect(waiting, "the second registration was not held back by the first")
        try first.execute("COMMIT")
        done.wait()
        #expect(failure.withLock { $0 } == nil)
        try p.sql.execute("SELECT pg_notify('\(PostgresChangeFeed.channel)', current_schema() || ' m end')")
        var payloads: [String] = []
        try waitUntil(timeout: 10) {
            payloads += try listener.awaitNotifications(timeoutMilliseconds: 100)
                .filter { $0.payload.hasPrefix(schema + " ") }.map(\.payload)
            return payloads.contains("\(schema) m end")
        }
        #expect(payloads == ["\(schema) d d1", "\(schema) m end"])
    }

    @Test("what the triggers send: nothing for a new pass or a first registration, one per change otherwise")
    func triggerPayloads() throws {
        let p = try Pair()
        let listener = try PGConnection(url: p.url.connectionString, server: p.url.description)
        try listener.execute("LISTEN \(PostgresChangeFeed.channel)")
        let schema = try listener.execute("SELECT current_schema()").string(0, 0)
        try p.writer.insertPasses([samplePass("A"), samplePass("B")])
        _ = try p.writer.register(device: "d1", passType: type, serial: "A", pushToken: "t1", tag: 1)
        _ = try p.writer.register(device: "d1", passType: type, serial: "B", pushToken: "t1", tag: 1)
        _ = try p.writer.updateRecord(serial: "A", record: ["tier": "Gold"])
        _ = try p.writer.unregister(device: "d1", passType: type, serial: "B")
        try p.sql.execute("SELECT pg_notify('\(PostgresChangeFeed.channel)', current_schema() || ' m end')")
        // Everything committed before the marker arrives before it: read up to it, then compare.
        var payloads: [String] = []
        try waitUntil(timeout: 10) {
            payloads += try listener.awaitNotifications(timeoutMilliseconds: 100)
                .filter { $0.payload.hasPrefix(schema + " ") }.map(\.payload)
            return payloads.contains("\(schema) m end")
        }
        #expect(
            payloads == ["d d1", "p A", "o", "d d1", "m end"].map { "\(schema) \($0)" },
            "new passes A, B and d1's first registration silent; its second, the update (pass and queued pushes), the unregistration"
        )
    }

    @Test("a read that raced a change is answered but not cached")
    func racingReadNotCached() throws {
        let p = try Pair()
        let feed = try #require(p.reader.changes)
        try p.writer.insertPasses([samplePass("A")])
        guard case .miss(let generation) = feed.version(passType: type, serial: "A") else {
            Issue.record("expected a miss")
            return
        }
        let stale = PassVersion(authenticationToken: "old", tag: 1, modifiedAtSeconds: 1)
        p.reader.changes?.passesChanged(["A"])  // the change lands between the read and the store
        feed.storeVersion(stale, passType: type, serial: "A", generation: generation)
        guard case .miss = feed.version(passType: type, serial: "A") else {
            Issue.record("a value read before a change was cached after it")
            return
        }
        #expect(try p.reader.passVersion(passType: type, serial: "A")?.authenticationToken != "old")
    }

    @Test("when the listening connection is cut, nothing cached before is served afterwards")
    func listenerReconnects() throws {
        let p = try Pair()
        _ = try p.cachedThenSilentlyRetagged("A", passType: type, to: 9_000_000)
        // Notifications sent while a listener is away are lost to it: it must start again from empty caches.
        let listener = try #require(p.reader.changes?.listenerProcessID)
        #expect(try p.sql.query("SELECT pg_terminate_backend($1)", [String(listener)]).bool(0, 0))
        let fresh = try waitUntil(timeout: 10) {
            try p.reader.passVersion(passType: type, serial: "A")?.tag == 9_000_000
        }
        #expect(fresh, "a version cached before the listener reconnected was still served")
        #expect(waitUntil(timeout: 10) { p.reader.changes?.listenerProcessID.map { $0 != listener } ?? false })
    }
}
