import Foundation
import Synchronization
import Testing
@testable import PassStore
import PassMintTestSupport

@Suite("Store: log lines and sign-ups capped in bytes, deleted by age, one sign-up per pass (SQLite and PostgreSQL)")
struct UnauthenticatedStoreTests {
    let type = "pass.com.example.loyalty"

    func enrollment(_ serial: String, token: String = walletToken, signature: [UInt8] = Array(repeating: 7, count: 300))
        -> PersonalizationEnrollment
    {
        PersonalizationEnrollment(
            passTypeIdentifier: type, serialNumber: serial, token: token, info: ["fullName": "Ada"],
            signature: signature)
    }

    /// What the lines count by the rule, worked out here rather than by the store.
    func counted(_ lines: [String]) -> Int {
        lines.reduce(0) { $0 + $1.utf8.count + UnauthenticatedKind.rowOverheadBytes }
    }

    @Test("appendLogs stores up to the cap in bytes and writes nothing past it", arguments: StoreBackend.all)
    func logCap(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        let line = String(repeating: "é", count: 50)  // 100 bytes, 50 characters: bytes are counted
        let cap = 5 * (100 + UnauthenticatedKind.rowOverheadBytes)
        for _ in 0..<5 { #expect(try f.store.appendLogs([line], maxStoredBytes: cap)) }
        #expect(try f.store.appendLogs([""], maxStoredBytes: cap) == false)
        #expect(try f.store.appendLogs([line, line], maxStoredBytes: cap + 200) == false)
        let stored = try f.store.recentLogs(limit: 100)
        #expect(stored.count == 5)
        #expect(try f.store.unauthenticatedUsage()[.log] == UnauthenticatedUsage(bytes: counted(stored), rows: 5))
        #expect(counted(stored) == cap)
    }

    @Test("two store instances writing at once do not pass the cap together", arguments: StoreBackend.all)
    func capAcrossInstances(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        let stores = [f.store, try f.secondStore()]
        let cap = 20_000
        let accepted = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for i in 0..<20 {
                let line = String(repeating: "w", count: 100 + worker * 10 + i)
                if (try? stores[worker % 2].appendLogs([line], maxStoredBytes: cap)) == true {
                    accepted.withLock { $0 += 1 }
                }
            }
        }
        let stored = try f.store.recentLogs(limit: 1000)
        #expect(stored.count == accepted.withLock { $0 })
        #expect(counted(stored) <= cap && counted(stored) > cap - 400, "\(counted(stored)) bytes")
        #expect(try f.store.unauthenticatedUsage()[.log]?.bytes == counted(stored))
    }

    @Test(
        "a sign-up is stored once: the pass is personalized with a new tag and a push; the next is refused",
        arguments: StoreBackend.all)
    func enrollOnce(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try f.store.insertPasses([samplePass("A")])
        _ = try f.store.register(device: "d1", passType: type, serial: "A", pushToken: "abcd", tag: 1)
        let before = try #require(try f.store.pass(serial: "A"))
        #expect(before.personalized == false)
        #expect(try f.store.storeEnrollment(enrollment("NOPE"), maxStoredBytes: .max) == .noPass)
        #expect(try f.store.storeEnrollment(enrollment("A"), maxStoredBytes: 100) == .overCap)
        #expect(try f.store.enrollment(passType: type, serial: "A") == nil)
        #expect(try f.store.unauthenticatedUsage()[.personalization] == UnauthenticatedUsage(bytes: 0, rows: 0))

        guard case .stored(let tag) = try f.store.storeEnrollment(enrollment("A"), maxStoredBytes: .max) else {
            Issue.record("not stored")
            return
        }
        let after = try #require(try f.store.pass(serial: "A"))
        #expect(after.personalized && after.tag == tag && tag > before.tag && after.modifiedAt > before.modifiedAt)
        #expect(try f.store.outboxDepth() == 1)
        #expect(try f.store.enrollment(passType: type, serial: "A") == enrollment("A"))
        #expect(
            try f.store.storeEnrollment(
                enrollment("A", token: "another-token-000", signature: [1]), maxStoredBytes: .max)
                == .alreadyPersonalized(enrollment("A")))
        #expect(try f.store.pass(serial: "A")?.tag == tag)
        let bytes = PersonalizationEnrollment.storedBytes(
            token: walletToken, encodedInfo: try RecordCoding.encode(["fullName": "Ada"]),
            signature: enrollment("A").signature)
        #expect(try f.store.unauthenticatedUsage()[.personalization] == UnauthenticatedUsage(bytes: bytes, rows: 1))

        // Issued again under the same serial: a new pass, personalizable again; the old sign-up answers no more.
        try f.store.insertPasses([samplePass("A")])
        #expect(try f.store.pass(serial: "A")?.personalized == false)
        #expect(try f.store.enrollment(passType: type, serial: "A") == nil)
        let second = enrollment("A", token: "second-token-0000")
        guard case .stored = try f.store.storeEnrollment(second, maxStoredBytes: .max) else {
            Issue.record("the new pass's sign-up was not stored")
            return
        }
        #expect(try f.store.enrollment(passType: type, serial: "A") == second)
        #expect(try f.store.personalizations(serial: "A").count == 2)
    }

    @Test("two sign-ups of one pass at once: exactly one is stored", arguments: StoreBackend.all)
    func enrollRace(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try f.store.insertPasses([samplePass("A")])
        let stores = [f.store, try f.secondStore()]
        let outcomes = Mutex<[EnrollmentOutcome]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { i in
            let outcome = try? stores[i % 2].storeEnrollment(
                enrollment("A", token: "racing-token-\(i)-0000"), maxStoredBytes: .max)
            outcomes.withLock { $0.append(outcome ?? .noPass) }
        }
        let all = outcomes.withLock { $0 }
        let stored = all.filter { if case .stored = $0 { true } else { false } }
        #expect(stored.count == 1, "\(all)")
        #expect(
            all.count - stored.count
                == all.filter { if case .alreadyPersonalized(.some) = $0 { true } else { false } }.count)
        #expect(try f.store.personalizations(serial: "A").count == 1)
    }

    @Test(
        "retention deletes lines and sign-ups stored before the cutoff; the pass stays personalized",
        arguments: StoreBackend.all)
    func retention(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try f.store.insertPasses([samplePass("A")])
        try f.store.appendLogs(["old one", "old two"])
        _ = try f.store.storeEnrollment(enrollment("A"), maxStoredBytes: .max)
        f.clock.advance(31 * 86_400)
        try f.store.appendLogs(["new"])
        let deleted = try f.store.deleteUnauthenticated(storedBefore: f.clock.now.addingTimeInterval(-30 * 86_400))
        #expect(deleted == [.log: 2, .personalization: 1])
        #expect(try f.store.recentLogs(limit: 10) == ["new"])
        #expect(try f.store.personalizations(serial: "A").isEmpty)
        #expect(try f.store.pass(serial: "A")?.personalized == true)
        let usage = try f.store.unauthenticatedUsage()
        #expect(usage[.log] == UnauthenticatedUsage(bytes: counted(["new"]), rows: 1))
        #expect(usage[.personalization] == UnauthenticatedUsage(bytes: 0, rows: 0))
        #expect(
            try f.store.deleteUnauthenticated(storedBefore: f.clock.now.addingTimeInterval(-30 * 86_400)) == [
                .log: 0, .personalization: 0,
            ])
    }
}
