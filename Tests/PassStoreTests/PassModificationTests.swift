import Foundation
import Synchronization
import Testing
@testable import PassStore
import PassMintTestSupport

/// Changes decided from the stored row inside the write (`modifyPass`, `applyChanges(lockingSerials:)`) and
/// passes issued again (`reissuePasses`), on both stores.
@Suite("PassStore.modifyPass and reissuePasses (SQLite and PostgreSQL)")
struct PassModificationTests {
    let type = "pass.com.example.loyalty"

    /// Pass A registered on two devices.
    func fixture(_ backend: StoreBackend) throws -> StoreFixture {
        let f = try StoreFixture(backend)
        try f.store.insertPasses([samplePass("A")])
        for i in 0..<2 {
            _ = try f.store.register(device: "dA\(i)", passType: type, serial: "A", pushToken: "tA\(i)", tag: 1)
        }
        return f
    }

    /// Adds 1 to `points` of the record it is given.
    static func plusOne(_ pass: StoredPass) -> PassModification {
        var record = pass.record
        record["points"] = String((Int(record["points"] ?? "0") ?? 0) + 1)
        return PassModification(record: record)
    }

    @Test("a state equal to the stored one is left alone: no tag, no push", arguments: StoreBackend.all)
    func unchanged(backend: StoreBackend) throws {
        let f = try fixture(backend)
        let before = try #require(try f.store.pass(serial: "A"))
        let outcome = try f.store.modifyPass(serial: "A") { PassModification(record: $0.record) }
        #expect(!outcome.changed && outcome.pushesQueued == 0 && outcome.pass == before)
        #expect(try f.store.pass(serial: "A") == before)
        #expect(try f.store.outboxDepth() == 0)
    }

    @Test(
        "a change gets a tag and one push per device; the next one finds them waiting and says so",
        arguments: StoreBackend.all)
    func pendingPushes(backend: StoreBackend) throws {
        let f = try fixture(backend)
        let first = try f.store.modifyPass(serial: "A", Self.plusOne)
        #expect(first.changed && first.pushesQueued == 2 && first.pushesAlreadyPending == 0)
        #expect(first.previous.record["points"] == "10" && first.pass.record["points"] == "11")
        let second = try f.store.modifyPass(serial: "A", Self.plusOne)
        #expect(second.pushesQueued == 0 && second.pushesAlreadyPending == 2 && second.pass.tag > first.pass.tag)
        #expect(try f.store.pass(serial: "A")?.record["points"] == "12")
    }

    @Test(
        "what the change closure throws stores nothing; an unknown serial is passNotFound", arguments: StoreBackend.all)
    func refused(backend: StoreBackend) throws {
        struct Refusal: Error {}
        let f = try fixture(backend)
        let before = try f.store.pass(serial: "A")
        #expect(throws: Refusal.self) { try f.store.modifyPass(serial: "A") { _ in throw Refusal() } }
        #expect(try f.store.pass(serial: "A") == before)
        #expect(throws: StoreError.self) { try f.store.modifyPass(serial: "NOPE", Self.plusOne) }
    }

    @Test(
        "40 additions from 8 threads on two store objects (two processes, two instances) all count",
        arguments: StoreBackend.all)
    func concurrent(backend: StoreBackend) throws {
        let f = try fixture(backend)
        let stores = [f.store, try f.secondStore()]
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for _ in 0..<5 {
                do { _ = try stores[worker % 2].modifyPass(serial: "A", Self.plusOne) } catch {
                    failures.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
        #expect(try f.store.pass(serial: "A")?.record["points"] == "50")
    }

    @Test(
        "reissuePasses keeps token, registrations and link, replaces record and template, pushes every device",
        arguments: StoreBackend.all)
    func reissue(backend: StoreBackend) throws {
        let f = try fixture(backend)
        let before = try #require(try f.store.pass(serial: "A"))
        var again = samplePass("A", token: "another-token-0123456789abcdef0123456789abcdef")
        again.record["points"] = "99"
        again.templatePath = "passmint-template:loyalty@" + String(repeating: "ab", count: 32)
        let queued = try f.store.reissuePasses([again, samplePass("NEW")])
        #expect(queued == ["A": 2, "NEW": 0])
        let after = try #require(try f.store.pass(serial: "A"))
        #expect(after.authenticationToken == before.authenticationToken)
        #expect(after.record["points"] == "99" && after.templatePath == again.templatePath && after.tag > before.tag)
        #expect(try f.store.registrationsCount() == 2)
        #expect(try f.store.pass(serial: "NEW")?.authenticationToken == samplePass("NEW").authenticationToken)
    }

    @Test(
        "a bulk chunk decides from the rows it locked and writes in the same transaction", arguments: StoreBackend.all)
    func lockedChunk(backend: StoreBackend) throws {
        let f = try fixture(backend)
        try f.store.insertPasses([samplePass("B")])
        let seen = Mutex<[String: String]>([:])
        let (outcome, pushes) = try f.store.applyChanges(
            lockingSerials: ["A", "B", "MISSING"], progress: BulkProgress(job: "j", position: 3)
        ) { passes in
            seen.withLock { seen in for pass in passes { seen[pass.serialNumber] = pass.record["points"] } }
            return passes.map { PassChange(serialNumber: $0.serialNumber, record: Self.plusOne($0).record) }
        }
        #expect(seen.withLock { $0 } == ["A": "10", "B": "10"])
        #expect(outcome.passesChanged == 2 && pushes == ["A": 2, "B": 0])
        #expect(try f.store.pass(serial: "B")?.record["points"] == "11")
        #expect(try f.store.bulkPosition(job: "j") == 3)
    }
}
