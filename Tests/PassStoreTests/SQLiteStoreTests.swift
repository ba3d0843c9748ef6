import Foundation
import Synchronization
import Testing
@testable import PassStore
import PassMintTestSupport

@Suite("PassStore (SQLite and PostgreSQL)")
struct SQLiteStoreTests {
    @Test("inserted passes round-trip with increasing tags", arguments: StoreBackend.all)
    func insertAndRead(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try f.store.insertPasses([samplePass("S1"), samplePass("S2")])
        let one = try #require(try f.store.pass(serial: "S1"))
        let two = try #require(try f.store.pass(passType: "pass.com.example.loyalty", serial: "S2"))
        #expect(one.record == ["name": "Ada", "tier": "Silver", "points": "10"])
        #expect(one.authenticationToken == samplePass("S1").authenticationToken)
        #expect(two.tag > one.tag)
        #expect(one.modifiedAt == f.clock.now)
        #expect(try f.store.pass(passType: "pass.other", serial: "S1") == nil)
        #expect(try f.store.pass(serial: "missing") == nil)
        let version = try #require(try f.store.passVersion(passType: "pass.com.example.loyalty", serial: "S2"))
        #expect(version.tag == two.tag)
        #expect(version.modifiedAtSeconds == Int64(f.clock.now.timeIntervalSince1970))
    }

    @Test("tags are monotonic across inserts and updates, never wall clock", arguments: StoreBackend.all)
    func tagsMonotonic(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try f.store.insertPasses([samplePass("A")])
        var last = try #require(try f.store.pass(serial: "A")).tag
        for points in 0..<5 {
            let (pass, _) = try f.store.updateRecord(serial: "A", record: ["points": "\(points)"])
            #expect(pass.tag == last + 1)
            last = pass.tag
        }
        #expect(last < 100)
    }

    @Test("modified_at is strictly later for each version, even within one second", arguments: StoreBackend.all)
    func modifiedAtStrictlyIncreasing(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try f.store.insertPasses([samplePass("A")])
        var previous = try #require(try f.store.pass(serial: "A")).modifiedAt
        for i in 0..<3 {
            let (pass, _) = try f.store.updateRecord(serial: "A", record: ["points": "\(i)"])
            #expect(pass.modifiedAt > previous)
            #expect(pass.modifiedAt.timeIntervalSince1970.rounded(.down) == pass.modifiedAt.timeIntervalSince1970)
            #expect(try f.store.pass(serial: "A")?.modifiedAt == pass.modifiedAt)
            previous = pass.modifiedAt
        }
        f.clock.advance(60)
        let (late, _) = try f.store.updateRecord(serial: "A", record: ["points": "9"])
        #expect(late.modifiedAt == f.clock.now)
    }

    @Test("re-inserting a serial replaces it with a later version", arguments: StoreBackend.all)
    func reinsertReplaces(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try f.store.insertPasses([samplePass("A")])
        let first = try #require(try f.store.pass(serial: "A"))
        try f.store.insertPasses([samplePass("A", token: "new-token-0123456789abcdef0123456789")])
        let second = try #require(try f.store.pass(serial: "A"))
        #expect(second.tag > first.tag)
        #expect(second.modifiedAt > first.modifiedAt)
        #expect(second.authenticationToken == "new-token-0123456789abcdef0123456789")
    }

    @Test(
        "register reports created then alreadyRegistered; re-register replaces the push token",
        arguments: StoreBackend.all)
    func registerAndReplaceToken(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try f.store.insertPasses([samplePass("A")])
        let type = "pass.com.example.loyalty"
        #expect(try f.store.register(device: "d1", passType: type, serial: "A", pushToken: "aa") == .created)
        #expect(try f.store.register(device: "d1", passType: type, serial: "A", pushToken: "bb") == .alreadyRegistered)
        #expect(try f.store.registrationsCount() == 1)
        let (_, queued) = try f.store.updateRecord(serial: "A", record: ["tier": "Gold"])
        #expect(queued == 1)
        let jobs = try f.store.claimDuePushes(limit: 10, now: f.clock.now, lease: 30)
        #expect(jobs.map(\.pushToken) == ["bb"])
    }

    @Test(
        "concurrent registrations of one device and pass from many threads create exactly one row",
        arguments: StoreBackend.all)
    func concurrentRegistration(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try f.store.insertPasses([samplePass("A")])
        let store = f.store
        let outcomes = Mutex<[RegistrationOutcome?]>([])
        let group = DispatchGroup()
        for i in 0..<24 {
            group.enter()
            Thread {
                let outcome = try? store.register(
                    device: "dev", passType: "pass.com.example.loyalty", serial: "A", pushToken: "ab\(i % 4)")
                outcomes.withLock { $0.append(outcome) }
                group.leave()
            }.start()
        }
        group.wait()
        let all = outcomes.withLock { $0 }
        #expect(all.count == 24)
        #expect(all.allSatisfy { $0 != nil })
        #expect(all.filter { $0 == .created }.count == 1)
        #expect(try f.store.registrationsCount() == 1)
    }

    @Test(
        "a second store instance on the same file writing concurrently (another process) does not fail",
        arguments: StoreBackend.all)
    func concurrentWritersAcrossInstances(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        let other = try f.secondStore()
        try f.store.insertPasses((0..<20).map { samplePass("P\($0)") })
        let group = DispatchGroup()
        let failures = Mutex(0)
        for (index, store) in Array([f.store, other].enumerated()) {
            group.enter()
            Thread {
                for i in 0..<20 {
                    do {
                        _ = try store.register(
                            device: "d\(index)", passType: "pass.com.example.loyalty",
                            serial: "P\(i)", pushToken: "aa")
                        _ = try store.updateRecord(serial: "P\(i)", record: ["i": "\(i)"])
                    } catch {
                        failures.withLock { $0 += 1 }
                    }
                }
                group.leave()
            }.start()
        }
        group.wait()
        #expect(failures.withLock { $0 } == 0)
        #expect(try f.store.registrationsCount() == 40)
    }

    @Test("unregister removes the registration and reports whether there was one", arguments: StoreBackend.all)
    func unregister(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try f.store.insertPasses([samplePass("A")])
        let type = "pass.com.example.loyalty"
        _ = try f.store.register(device: "d1", passType: type, serial: "A", pushToken: "aa")
        #expect(try f.store.unregister(device: "d1", passType: type, serial: "A"))
        #expect(try !f.store.unregister(device: "d1", passType: type, serial: "A"))
        #expect(try f.store.registrationsCount() == 0)
        #expect(try f.store.updatedSerials(device: "d1", passType: type, since: nil) == nil)
    }
}
