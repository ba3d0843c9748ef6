import Foundation
import Synchronization
import Testing
@testable import PassStore
import PassMintTestSupport

/// Registering and unregistering devices, alone and from many threads or store instances at once.
@Suite("PassStore: device registrations (SQLite and PostgreSQL)")
struct RegistrationStoreTests {
    @Test(
        "register reports created then alreadyRegistered; re-register replaces the push token",
        arguments: StoreBackend.all)
    func registerAndReplaceToken(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try f.store.insertPasses([samplePass("A")])
        let type = "pass.com.example.loyalty"
        #expect(try f.store.register(device: "d1", passType: type, serial: "A", pushToken: "aa", tag: 1) == .created)
        #expect(
            try f.store.register(device: "d1", passType: type, serial: "A", pushToken: "bb", tag: 1)
                == .alreadyRegistered)
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
                    device: "dev", passType: "pass.com.example.loyalty", serial: "A", pushToken: "ab\(i % 4)", tag: 1)
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
                            serial: "P\(i)", pushToken: "aa", tag: 1)
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

    @Test(
        "unregister removes the registration and returns it (time, tag registered at, push token prefix), nil when there was none",
        arguments: StoreBackend.all)
    func unregister(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try f.store.insertPasses([samplePass("A")])
        let type = "pass.com.example.loyalty"
        let before = Date().timeIntervalSince1970.rounded(.down)
        _ = try f.store.register(device: "d1", passType: type, serial: "A", pushToken: "aabbccdd00112233", tag: 7)
        let shown = try #require(try f.store.details(serial: "A")).registrations
        #expect(shown.map(\.tag) == [7] && shown.map(\.pushTokenPrefix) == ["aabbccdd…"])
        let removed = try #require(try f.store.unregister(device: "d1", passType: type, serial: "A"))
        #expect(removed == shown[0])
        #expect(removed.deviceLibraryIdentifier == "d1" && removed.tag == 7 && removed.pushTokenPrefix == "aabbccdd…")
        #expect(removed.registeredAt.timeIntervalSince1970 >= before)
        #expect(try f.store.unregister(device: "d1", passType: type, serial: "A") == nil)
        #expect(try f.store.registrationsCount() == 0)
        #expect(try f.store.updatedSerials(device: "d1", passType: type, since: nil) == nil)
    }
}
