import Foundation
import Synchronization
import Testing
@testable import PassStore
import PassMintTestSupport

/// What only the shared PostgreSQL store has to show: many instances on one database.
@Suite("PostgresStore", .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresStoreTests {
    let type = "pass.com.example.loyalty"

    @Test("instances starting together migrate once under the advisory lock")
    func concurrentMigrations() throws {
        let url = try PostgresTestServer.freshSchema()
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        for _ in 0..<6 {
            group.enter()
            Thread {
                do { _ = try PostgresStore(url: url, poolSize: 1) } catch {
                    failures.withLock { $0.append("\(error)") }
                }
                group.leave()
            }.start()
        }
        group.wait()
        #expect(failures.withLock { $0 }.isEmpty)
        let db = try PGConnection(url: url.connectionString, server: url.description)
        let versions = try db.execute("SELECT version FROM schema_migrations ORDER BY version")
        #expect((0..<versions.rowCount).map { versions.int($0, 0) } == PostgresSchema.migrations.map(\.version))
    }

    @Test("instances storing disjoint passes of one template at once (sharded batches) never deadlock on the counters")
    func concurrentInserts() throws {
        let url = try PostgresTestServer.freshSchema()
        let stores = try (0..<2).map { _ in try PostgresStore(url: url, poolSize: 2) }
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        for (instance, store) in stores.enumerated() {
            group.enter()
            Thread {
                for chunk in 0..<12 {
                    let passes = (0..<100).map { i in samplePass("I\(instance)-C\(chunk)-\(i)") }
                    do { try store.insertPasses(passes) } catch { failures.withLock { $0.append("\(error)") } }
                }
                group.leave()
            }.start()
        }
        group.wait()
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(try stores[0].installTotals().map(\.issued).reduce(0, +) == 2 * 12 * 100)
    }

    @Test("two instances draining one outbox at once claim disjoint rows; a dead claimer's rows return after its lease")
    func skipLockedAcrossInstances() throws {
        let f = try StoreFixture(.postgres)
        let other = try f.secondStore()
        try f.store.insertPasses([samplePass("A")])
        for i in 0..<400 {
            _ = try f.store.register(device: "d\(i)", passType: type, serial: "A", pushToken: "t\(i)", tag: 1)
        }
        #expect(try f.store.updateRecord(serial: "A", record: ["tier": "Gold"]).pushesQueued == 400)
        let now = f.clock.now
        let claims = Mutex<[[Int64]]>([])
        let group = DispatchGroup()
        for store in [f.store, other, f.store, other] {
            group.enter()
            Thread {
                let ids = (try? store.claimDuePushes(limit: 150, now: now, lease: 30).map(\.id)) ?? []
                claims.withLock { $0.append(ids) }
                group.leave()
            }.start()
        }
        group.wait()
        let all = claims.withLock { $0 }.flatMap { $0 }
        #expect(all.count == 400)
        #expect(Set(all).count == 400)
        // Nobody completes them (the claimers "died"): within the lease nothing is due, after it everything.
        #expect(try other.claimDuePushes(limit: 1000, now: f.clock.now.addingTimeInterval(29), lease: 30).isEmpty)
        let again = try other.claimDuePushes(limit: 1000, now: f.clock.now.addingTimeInterval(31), lease: 30)
        #expect(Set(again.map(\.id)) == Set(all))
    }

    @Test("update tags from the sequence are distinct and increasing across instances; every version a later second")
    func tagsAcrossInstances() throws {
        let f = try StoreFixture(.postgres)
        let other = try f.secondStore()
        try f.store.insertPasses((0..<10).map { samplePass("P\($0)") })
        let tags = Mutex<[Int64]>([])
        let group = DispatchGroup()
        for store in [f.store, other] {
            group.enter()
            Thread {
                for round in 0..<20 {
                    if let (pass, _) = try? store.updateRecord(serial: "P\(round % 10)", record: ["r": "\(round)"]) {
                        tags.withLock { $0.append(pass.tag) }
                    }
                }
                group.leave()
            }.start()
        }
        group.wait()
        let all = tags.withLock { $0 }
        #expect(all.count == 40)
        #expect(Set(all).count == 40)
        for serial in (0..<10).map({ "P\($0)" }) {
            let pass = try #require(try f.store.pass(serial: serial))
            // Inserted at the clock's second, then updated 4 times: 4 seconds later at least, never equal.
            #expect(pass.modifiedAt >= f.clock.now.addingTimeInterval(4))
        }
    }

    @Test("an unreachable server is an unavailable database, and its message carries no password")
    func unreachable() throws {
        let url = try PostgresURL("postgresql://passmint:s3cret@127.0.0.1:1/passmint?connect_timeout=2")
        do {
            _ = try PostgresStore(url: url)
            Issue.record("connected to port 1")
        } catch let error as StoreError {
            guard case .databaseUnavailable(let server, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(server == "postgresql://passmint:***@127.0.0.1:1/passmint?connect_timeout=2")
            #expect(!"\(error)".contains("s3cret"))
        }
    }

    @Test("a SQLite store copied to PostgreSQL keeps passes, tokens, tags, registrations, outbox and history")
    func transfer() throws {
        let source = try StoreFixture(.sqlite)
        var passes = (0..<50).map { samplePass("S\($0)") }
        passes[0].webServiceURL = "https://passes.example.com"
        passes[1].compatiblePass = true
        try source.store.insertPasses(passes)
        for i in 0..<50 {
            _ = try source.store.register(
                device: "d\(i % 7)", passType: type, serial: "S\(i)", pushToken: "t\(i % 7)", tag: 1)
        }
        _ = try source.store.updateRecord(serial: "S3", record: ["tier": "Gold"])
        let claimed = try source.store.claimDuePushes(limit: 1, now: source.clock.now, lease: 30)
        try source.store.completePushes(ids: claimed.map(\.id))
        try source.store.appendLogs(["a log line"])
        let version = TemplateVersion(files: ["pass.json": Array("{}".utf8), "icon.png": [0, 255, 92, 120]])
        _ = try source.sqlite.storeTemplateVersion(version)
        try source.sqlite.publishTemplate(name: "loyalty", digest: version.digest, onlyIfUnpublished: false)

        let target = try PostgresStore(url: try PostgresTestServer.freshSchema(), now: source.clock.closure)
        let counts = try StoreTransfer.copy(from: source.sqlite, to: target)
        #expect(counts.rows.first { $0.table == "passes" }?.count == 50)
        for i in 0..<50 {
            #expect(try target.pass(serial: "S\(i)") == source.store.pass(serial: "S\(i)"))
        }
        for device in (0..<7).map({ "d\($0)" }) {
            let before = try source.store.updatedSerials(device: device, passType: type, since: nil)
            let after = try target.updatedSerials(device: device, passType: type, since: nil)
            #expect(before?.serials == after?.serials)
            #expect(before?.lastUpdated == after?.lastUpdated)
        }
        #expect(try target.outboxDepth() == source.store.outboxDepth())
        #expect(try target.details(serial: "S3")?.pushHistory == source.store.details(serial: "S3")?.pushHistory)
        #expect(try target.recentLogs(limit: 5) == ["a log line"])
        // Template versions travel too (passes that name one render from them).
        #expect(try target.templateVersion(digest: version.digest) == version)
        #expect(try target.currentTemplate(name: "loyalty") == source.sqlite.currentTemplate(name: "loyalty"))
        // The sequence continues after the copied tags.
        let newest = try #require(try source.store.pass(serial: "S3")).tag
        #expect(try target.updateRecord(serial: "S4", record: [:]).pass.tag > newest)
        #expect(throws: StoreError.self) { _ = try StoreTransfer.copy(from: source.sqlite, to: target) }
    }
}
