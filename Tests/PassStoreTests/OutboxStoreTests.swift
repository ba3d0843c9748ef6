import Foundation
import Testing
@testable import PassStore
import PassMintTestSupport

@Suite("PassStore as PushOutbox (SQLite and PostgreSQL)")
struct OutboxStoreTests {
    let type = "pass.com.example.loyalty"

    func fixture(_ backend: StoreBackend, devices: Int) throws -> StoreFixture {
        let f = try StoreFixture(backend)
        try f.store.insertPasses([samplePass("A")])
        for i in 0..<devices {
            _ = try f.store.register(device: "d\(i)", passType: type, serial: "A", pushToken: "a\(i)", tag: 1)
        }
        return f
    }

    @Test("updateRecord queues one outbox row per registered device", arguments: StoreBackend.all)
    func oneRowPerDevice(backend: StoreBackend) throws {
        let f = try fixture(backend, devices: 5)
        let (pass, queued) = try f.store.updateRecord(serial: "A", record: ["tier": "Gold"])
        #expect(queued == 5)
        #expect(try f.store.outboxDepth() == 5)
        #expect(pass.record == ["tier": "Gold"])
        #expect(try f.store.pass(serial: "A")?.record == ["tier": "Gold"])
        #expect(throws: StoreError.passNotFound(serial: "nope")) {
            _ = try f.store.updateRecord(serial: "nope", record: [:])
        }
    }

    @Test("updateRecord voids a pass with a new tag and its pushes; nil keeps the state", arguments: StoreBackend.all)
    func voids(backend: StoreBackend) throws {
        let f = try fixture(backend, devices: 2)
        let before = try #require(try f.store.pass(serial: "A"))
        #expect(before.voided == false)
        let (voided, queued) = try f.store.updateRecord(serial: "A", record: before.record, images: nil, voided: true)
        #expect(voided.voided && queued == 2 && voided.tag > before.tag)
        #expect(try f.store.pass(serial: "A")?.voided == true)
        _ = try f.store.updateRecord(serial: "A", record: ["tier": "Gold"])
        #expect(try f.store.pass(serial: "A")?.voided == true)
        _ = try f.store.updateRecord(serial: "A", record: ["tier": "Gold"], images: nil, voided: false)
        #expect(try f.store.pass(serial: "A")?.voided == false)
    }

    @Test("a second change while pushes are still unclaimed does not queue duplicates", arguments: StoreBackend.all)
    func coalesces(backend: StoreBackend) throws {
        let f = try fixture(backend, devices: 3)
        _ = try f.store.updateRecord(serial: "A", record: ["tier": "Gold"])
        let (_, queued) = try f.store.updateRecord(serial: "A", record: ["tier": "Platinum"])
        #expect(queued == 0)
        _ = try f.store.claimDuePushes(limit: 10, now: f.clock.now, lease: 30)
        let (_, afterClaim) = try f.store.updateRecord(serial: "A", record: ["tier": "Silver"])
        #expect(afterClaim == 3)
    }

    @Test("claims lease rows; unacknowledged rows come back after the lease", arguments: StoreBackend.all)
    func leases(backend: StoreBackend) throws {
        let f = try fixture(backend, devices: 3)
        _ = try f.store.updateRecord(serial: "A", record: ["tier": "Gold"])
        let first = try f.store.claimDuePushes(limit: 2, now: f.clock.now, lease: 30)
        #expect(first.count == 2)
        #expect(first.allSatisfy { $0.passTypeIdentifier == type && $0.attempts == 0 })
        let second = try f.store.claimDuePushes(limit: 10, now: f.clock.now, lease: 30)
        #expect(second.count == 1)
        #expect(Set(first.map(\.id)).isDisjoint(with: second.map(\.id)))
        #expect(try f.store.claimDuePushes(limit: 10, now: f.clock.now, lease: 30).isEmpty)
        try f.store.completePush(id: first[0].id)
        let later = f.clock.now.addingTimeInterval(31)
        let again = try f.store.claimDuePushes(limit: 10, now: later, lease: 30)
        #expect(Set(again.map(\.id)) == Set([first[1].id, second[0].id]))
        #expect(try f.store.outboxDepth() == 2)
    }

    @Test("retry reschedules with one more attempt; complete records history", arguments: StoreBackend.all)
    func retryAndComplete(backend: StoreBackend) throws {
        let f = try fixture(backend, devices: 1)
        _ = try f.store.updateRecord(serial: "A", record: ["tier": "Gold"])
        let job = try #require(try f.store.claimDuePushes(limit: 1, now: f.clock.now, lease: 30).first)
        try f.store.retryPush(id: job.id, at: f.clock.now.addingTimeInterval(10), reason: "HTTP 503")
        #expect(try f.store.claimDuePushes(limit: 1, now: f.clock.now.addingTimeInterval(5), lease: 30).isEmpty)
        let retried = try #require(
            try f.store.claimDuePushes(limit: 1, now: f.clock.now.addingTimeInterval(10), lease: 30).first)
        #expect(retried.id == job.id)
        #expect(retried.attempts == 1)
        try f.store.completePush(id: retried.id)
        #expect(try f.store.outboxDepth() == 0)
        let details = try #require(try f.store.details(serial: "A"))
        #expect(details.pushHistory.map(\.result.rawValue) == ["sent", "retry"])
        #expect(details.pushHistory.last?.detail == "HTTP 503")
        #expect(details.registrations.map(\.deviceLibraryIdentifier) == ["d0"])
    }

    @Test(
        "drop deletes the row, the registrations of that token and its other pending rows",
        arguments: StoreBackend.all)
    func drop(backend: StoreBackend) throws {
        let f = try fixture(backend, devices: 2)
        try f.store.insertPasses([samplePass("B")])
        _ = try f.store.register(device: "d0", passType: type, serial: "B", pushToken: "a0", tag: 1)
        _ = try f.store.updateRecord(serial: "A", record: ["tier": "Gold"])
        let jobs = try f.store.claimDuePushes(limit: 10, now: f.clock.now, lease: 30)
        let job = try #require(jobs.first { $0.pushToken == "a0" })
        try f.store.dropPush(id: job.id, deletingRegistrationsFor: "a0", reason: "410 Unregistered")
        #expect(try f.store.registrationsCount() == 1)
        #expect(try f.store.updatedSerials(device: "d0", passType: type, since: nil) == nil)
        #expect(try f.store.outboxDepth() == 1)
        #expect(try f.store.details(serial: "A")?.pushHistory.first?.result == .dropped)
    }

    @Test("abandon deletes the row but keeps the registrations", arguments: StoreBackend.all)
    func abandon(backend: StoreBackend) throws {
        let f = try fixture(backend, devices: 1)
        _ = try f.store.updateRecord(serial: "A", record: ["tier": "Gold"])
        let job = try #require(try f.store.claimDuePushes(limit: 1, now: f.clock.now, lease: 30).first)
        try f.store.abandonPush(id: job.id, reason: "400 BadTopic")
        #expect(try f.store.outboxDepth() == 0)
        #expect(try f.store.registrationsCount() == 1)
        #expect(try f.store.details(serial: "A")?.pushHistory.first?.detail == "400 BadTopic")
    }

    @Test("a second store on the same file (another process) sees writes", arguments: StoreBackend.all)
    func secondConnection(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        let other = try f.secondStore()
        try other.insertPasses([samplePass("X")])
        #expect(try f.store.pass(serial: "X") != nil)
    }

    @Test("logs and personalizations are stored", arguments: StoreBackend.all)
    func logsAndPersonalization(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try f.store.appendLogs(["one", "two"])
        #expect(try f.store.recentLogs(limit: 10) == ["one", "two"])
        try f.store.insertPasses([samplePass("A")])
        let enrollment = PersonalizationEnrollment(
            passTypeIdentifier: type, serialNumber: "A", token: "t", info: ["fullName": "Ada"], signature: [1, 2])
        guard case .stored = try f.store.storeEnrollment(enrollment, maxStoredBytes: .max) else {
            Issue.record("the sign-up was not stored")
            return
        }
        #expect(try f.store.personalizations(serial: "A") == [["fullName": "Ada"]])
    }
}
