import Foundation
import Testing
@testable import PassStore
import PassMintTestSupport

@Suite("PassStore as PassEventStore: versions, events, bounds (SQLite and PostgreSQL)")
struct PassEventStoreTests {
    let type = "pass.com.example.loyalty"

    @Test(
        "every new tag is a version with the record keys it changed, written by the store itself",
        arguments: StoreBackend.all)
    func versions(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try f.store.insertPasses([samplePass("A")])
        f.clock.advance(5)
        _ = try f.store.updateRecord(serial: "A", record: ["name": "Ada", "tier": "Gold", "points": "10", "new": "x"])
        f.clock.advance(5)
        _ = try f.store.updateRecord(serial: "A", record: ["name": "Ada", "tier": "Gold", "points": "25"])
        let versions = try f.store.passVersions(serial: "A")
        let stored = try #require(try f.store.pass(serial: "A"))
        #expect(versions.count == 3)
        #expect(versions.map(\.tag) == versions.map(\.tag).sorted() && versions.last?.tag == stored.tag)
        #expect(versions.last?.modifiedAtSeconds == Int64(stored.modifiedAt.timeIntervalSince1970))
        #expect(versions[0].changed.isEmpty)
        #expect(versions[1].changed.count == 2)
        #expect(versions[1].changed["tier"]?.before == "Silver" && versions[1].changed["tier"]?.after == "Gold")
        #expect(versions[1].changed["new"]?.before == nil && versions[1].changed["new"]?.after == "x")
        #expect(versions[2].changed.count == 2)
        #expect(versions[2].changed["points"]?.before == "10" && versions[2].changed["points"]?.after == "25")
        #expect(versions[2].changed["new"]?.before == "x" && versions[2].changed["new"]?.after == nil)
    }

    @Test(
        "a list request is an event of each pass the device holds, saying whether it was in the answer",
        arguments: StoreBackend.all)
    func listsExpand(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try f.store.insertPasses([samplePass("A"), samplePass("B"), samplePass("C", passType: "pass.other")])
        for serial in ["A", "B"] {
            _ = try f.store.register(device: "d1", passType: type, serial: serial, pushToken: "aa11", tag: 1)
        }
        _ = try f.store.register(device: "d1", passType: "pass.other", serial: "C", pushToken: "aa11", tag: 1)
        let list = ListRequest(
            device: "d1", passType: type, since: 7, status: 200, serials: ["A"], lastUpdated: 9, at: f.clock.now)
        try f.store.recordEvents([], lists: [list], keepPerPass: 50)
        let a = try f.store.passEvents(serial: "A"), b = try f.store.passEvents(serial: "B")
        #expect(a.map(\.detail) == [.listed(since: 7, status: 200, included: true, lastUpdated: 9)])
        #expect(b.map(\.detail) == [.listed(since: 7, status: 200, included: false, lastUpdated: 9)])
        #expect(a.first?.device == "d1" && a.first?.tag == 7)
        #expect(try f.store.passEvents(serial: "C").isEmpty, "another pass type is not listed")

        var repeated = list
        repeated.count = 3
        try f.store.recordEvents([], lists: [repeated], keepPerPass: 50)
        #expect(try f.store.passEvents(serial: "A").map(\.count) == [1, 3], "a list request's count is kept")
        #expect(try f.store.passEvents(serial: "B").last?.detail == b.first?.detail)
    }

    @Test(
        "a pass written to batch by batch never holds more than N, at least three quarters of N, always its newest",
        arguments: StoreBackend.all)
    func boundBetweenTrims(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try f.store.insertPasses([samplePass("A")])
        let keep = 8
        var counts: [Int] = []
        for n in 0..<40 {
            let event = PassEvent(
                serial: "A", passType: type, device: nil, at: f.clock.now.addingTimeInterval(Double(n)), tag: Int64(n),
                detail: .downloaded(
                    ifModifiedSince: nil, ifModifiedSinceSeconds: nil, status: 200, lastModified: "n\(n)"))
            try f.store.recordEvents([event], lists: [], keepPerPass: keep)
            let tags = try f.store.passEvents(serial: "A").compactMap(\.tag)
            counts.append(tags.count)
            #expect(tags == ((n + 1 - tags.count)...n).map { Int64($0) }, "the newest, in order, none missing")
        }
        #expect(counts.max() == keep, "\(counts)")
        #expect(counts.suffix(30).min() == 6, "trimmed to three quarters of N, not below: \(counts)")
    }

    @Test(
        "a log line is kept for a pass that exists only; events are trimmed to the newest per pass",
        arguments: StoreBackend.all)
    func logsAndBound(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try f.store.insertPasses([samplePass("A")])
        let log = PassEvent(serial: "A", passType: type, device: nil, at: f.clock.now, detail: .logged(line: "x 401"))
        let stranger = PassEvent(serial: "Z", passType: type, device: nil, at: f.clock.now, detail: .logged(line: "y"))
        let wrongType = PassEvent(
            serial: "A", passType: "pass.x", device: nil, at: f.clock.now, detail: .logged(line: "z"))
        try f.store.recordEvents([log, stranger, wrongType], lists: [], keepPerPass: 50)
        #expect(try f.store.passEvents(serial: "A").map(\.detail) == [.logged(line: "x 401")])
        #expect(try f.store.passEvents(serial: "Z").isEmpty)

        let downloads = (0..<30).map { n in
            PassEvent(
                serial: "A", passType: type, device: nil, at: f.clock.now.addingTimeInterval(Double(n)), tag: Int64(n),
                detail: .downloaded(
                    ifModifiedSince: nil, ifModifiedSinceSeconds: nil, status: 200, lastModified: "n\(n)"))
        }
        try f.store.recordEvents(Array(downloads.prefix(20)), lists: [], keepPerPass: 10)
        try f.store.recordEvents(Array(downloads.suffix(10)), lists: [], keepPerPass: 10)
        let kept = try f.store.passEvents(serial: "A")
        #expect(kept.count == 8)
        #expect(kept.map(\.tag) == (22..<30).map { Int64($0) }, "the newest three quarters of ten, oldest dropped")

        #expect(try f.store.deleteEvents(before: f.clock.now.addingTimeInterval(25)) >= 3)
        #expect(try f.store.passEvents(serial: "A").map(\.tag) == (25..<30).map { Int64($0) })
        #expect(try f.store.passVersions(serial: "A").count == 1, "the current version stays")
    }

    @Test(
        "an APNs answer is an event of every pass of the device, with device, tag and reason; retries keep their age",
        arguments: StoreBackend.all)
    func pushAnswers(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try f.store.insertPasses([samplePass("A"), samplePass("B")])
        _ = try f.store.register(device: "d1", passType: type, serial: "A", pushToken: "aa11", tag: 1)
        _ = try f.store.register(device: "d1", passType: type, serial: "B", pushToken: "aa11", tag: 1)
        #expect(try f.store.oldestPendingPush() == nil)
        let queuedAt = f.clock.now
        let (pass, queued) = try f.store.updateRecord(serial: "A", record: ["tier": "Gold"])
        #expect(queued == 1)
        let job = try #require(try f.store.claimDuePushes(limit: 10, now: f.clock.now, lease: 30).first)
        try f.store.recordPushAttempts(
            [
                PushAttempt(
                    outboxID: job.id, status: 410, reason: "Unregistered", apnsID: "ID-1", apnsTimestamp: 1234,
                    authentication: "token", at: f.clock.now)
            ], keepPerPass: 50)
        let expected = PassEventDetail.pushed(
            status: 410, reason: "Unregistered", apnsID: "ID-1", apnsTimestamp: 1234, authentication: "token")
        for serial in ["A", "B"] {
            let events = try f.store.passEvents(serial: serial)
            #expect(events.map(\.detail) == [expected], "\(serial)")
            #expect(events.first?.device == "d1" && events.first?.tag == pass.tag)
        }
        f.clock.advance(100)
        try f.store.retryPush(id: job.id, at: f.clock.now.addingTimeInterval(600), reason: "TooManyRequests")
        let oldest = try #require(try f.store.oldestPendingPush())
        #expect(abs(oldest.timeIntervalSince(queuedAt)) < 1, "the age counts from when it was first due")
    }

    @Test(
        "an answer that ends the token's registrations stores each of them as its registered event first (time, tag, token prefix)",
        arguments: StoreBackend.all)
    func endedRegistrations(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try f.store.insertPasses([samplePass("A"), samplePass("B"), samplePass("C")])
        let registeredAt = Date(timeIntervalSince1970: (f.clock.now.timeIntervalSince1970).rounded(.down))
        _ = try f.store.register(device: "d1", passType: type, serial: "A", pushToken: "aa11bb22cc33dd44", tag: 4)
        _ = try f.store.register(device: "d1", passType: type, serial: "B", pushToken: "aa11bb22cc33dd44", tag: 5)
        _ = try f.store.register(device: "d2", passType: type, serial: "C", pushToken: "ff00ff00ff00", tag: 6)
        f.clock.advance(10)
        _ = try f.store.updateRecord(serial: "A", record: ["tier": "Gold"])
        _ = try f.store.updateRecord(serial: "C", record: ["tier": "Gold"])
        let jobs = try f.store.claimDuePushes(limit: 10, now: f.clock.now, lease: 30)
        let dead = try #require(jobs.first { $0.pushToken == "aa11bb22cc33dd44" })
        let alive = try #require(jobs.first { $0.pushToken == "ff00ff00ff00" })
        try f.store.recordPushAttempts(
            [
                PushAttempt(
                    outboxID: dead.id, status: 410, reason: "Unregistered", apnsID: nil, apnsTimestamp: nil,
                    authentication: "certificate", at: f.clock.now, endsRegistrations: true),
                PushAttempt(
                    outboxID: alive.id, status: 200, reason: nil, apnsID: nil, apnsTimestamp: nil,
                    authentication: "certificate", at: f.clock.now),
            ], keepPerPass: 50)
        for (serial, tag) in [("A", Int64(4)), ("B", 5)] {
            let events = try f.store.passEvents(serial: serial)
            #expect(events.map(\.kind) == [.registered, .pushed], "\(serial)")
            #expect(events.first?.detail == .registered(created: true, pushTokenPrefix: "aa11bb22…"))
            #expect(events.first?.tag == tag && events.first?.device == "d1" && events.first?.at == registeredAt)
        }
        #expect(try f.store.passEvents(serial: "C").map(\.kind) == [.pushed], "a delivered push ends nothing")
    }
}
