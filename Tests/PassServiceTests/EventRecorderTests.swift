import Foundation
import Synchronization
import Testing
@testable import PassStore
@testable import PassService
import PassMintTestSupport

/// The event writer's queue, written to a real store with `flush()`.
@Suite("EventRecorder: what a batch stores")
struct EventRecorderTests {
    static let type = "pass.com.example.loyalty"

    static func download(_ serial: String, status: Int, at: Date) -> PassEvent {
        PassEvent(
            serial: serial, passType: type, device: nil, at: at, tag: 1,
            detail: .downloaded(
                ifModifiedSince: status == 304 ? "Thu, 03 Dec 2026 10:00:00 GMT" : nil,
                ifModifiedSinceSeconds: status == 304 ? 1_796_292_000 : nil, status: status,
                lastModified: "Thu, 03 Dec 2026 10:00:00 GMT"))
    }

    @Test("identical downloads queued together are one stored event with their count; other events stay as they are")
    func downloadsCoalesce() throws {
        let f = try StoreFixture()
        try f.store.insertPasses([samplePass("A"), samplePass("B")])
        let recorder = EventRecorder(store: f.store, options: PassEventOptions())
        let now = f.clock.now
        for n in 0..<5 { recorder.record(Self.download("A", status: 304, at: now.addingTimeInterval(Double(n)))) }
        recorder.record(Self.download("A", status: 200, at: now.addingTimeInterval(6)))
        recorder.record(Self.download("B", status: 304, at: now.addingTimeInterval(7)))
        recorder.record(Self.download("A", status: 304, at: now.addingTimeInterval(8)))
        recorder.record(
            PassEvent(
                serial: "A", passType: Self.type, device: "d1", at: now.addingTimeInterval(9), tag: 1,
                detail: .registered(created: true, pushTokenPrefix: "aa11bb22")))
        recorder.flush()

        let a = try f.store.passEvents(serial: "A")
        #expect(a.map(\.count) == [6, 1, 1], "\(a)")
        #expect(a.first?.at == now, "a coalesced download keeps the first one's time")
        #expect(a.map(\.kind) == [.downloaded, .downloaded, .registered])
        #expect(try f.store.passEvents(serial: "B").map(\.count) == [1])

        // The next batch starts afresh: the same download is a new event.
        recorder.record(Self.download("A", status: 304, at: now.addingTimeInterval(20)))
        recorder.flush()
        #expect(try f.store.passEvents(serial: "A").map(\.count) == [6, 1, 1, 1])
    }

    @Test(
        "a device's repeated registration and identical list requests queued together are stored once with their count")
    func repeatsCoalesce() throws {
        let f = try StoreFixture()
        try f.store.insertPasses([samplePass("A"), samplePass("B")])
        for serial in ["A", "B"] {
            _ = try f.store.register(device: "d1", passType: Self.type, serial: serial, pushToken: "aa11bb22cc", tag: 1)
        }
        let recorder = EventRecorder(store: f.store, options: PassEventOptions())
        let now = f.clock.now
        let type = Self.type
        func registered(_ device: String, created: Bool, _ second: Double) -> PassEvent {
            PassEvent(
                serial: "A", passType: type, device: device, at: now.addingTimeInterval(second), tag: 1,
                detail: .registered(created: created, pushTokenPrefix: "aa11bb22"))
        }
        func list(_ since: Int64?, _ second: Double) -> ListRequest {
            ListRequest(
                device: "d1", passType: type, since: since, status: 200, serials: ["A"], lastUpdated: 9,
                at: now.addingTimeInterval(second))
        }
        for n in 0..<3 { recorder.record(registered("d1", created: false, Double(n))) }
        recorder.record(registered("d2", created: false, 3))
        recorder.record(registered("d1", created: true, 4))
        for n in 0..<4 { recorder.record(list(7, 10 + Double(n))) }
        recorder.record(list(8, 20))
        recorder.flush()

        let a = try f.store.passEvents(serial: "A")
        #expect(a.map(\.kind) == [.registered, .registered, .registered, .listed, .listed], "\(a)")
        #expect(a.map(\.count) == [3, 1, 1, 4, 1])
        #expect(a.map(\.device) == ["d1", "d2", "d1", "d1", "d1"])
        #expect(a[3].at == now.addingTimeInterval(10), "a coalesced list request keeps the first one's time")
        #expect(a[3].detail == .listed(since: 7, status: 200, included: true, lastUpdated: 9))
        let b = try f.store.passEvents(serial: "B")
        #expect(b.map(\.count) == [4, 1], "the other pass of the device: the same list requests, not in the answer")
        #expect(b.first?.detail == .listed(since: 7, status: 200, included: false, lastUpdated: 9))
    }

    @Test("a full queue drops new events only: a repeat of a queued one still adds to its count")
    func fullQueueKeepsRepeats() throws {
        let f = try StoreFixture()
        try f.store.insertPasses([samplePass("A"), samplePass("B"), samplePass("C")])
        let counts = Mutex((written: 0, dropped: 0))
        let recorder = EventRecorder(store: f.store, options: PassEventOptions(maxQueued: 2)) { written, dropped in
            counts.withLock { $0 = ($0.written + written, $0.dropped + dropped) }
        }
        let now = f.clock.now
        recorder.record(Self.download("A", status: 304, at: now))
        recorder.record(Self.download("B", status: 304, at: now.addingTimeInterval(1)))
        recorder.record(Self.download("C", status: 304, at: now.addingTimeInterval(2)))  // a third: no room
        for n in 0..<3 { recorder.record(Self.download("A", status: 304, at: now.addingTimeInterval(3 + Double(n)))) }
        recorder.flush()
        #expect(try f.store.passEvents(serial: "A").map(\.count) == [4])
        #expect(try f.store.passEvents(serial: "B").map(\.count) == [1])
        #expect(try f.store.passEvents(serial: "C").isEmpty)
        #expect(counts.withLock { $0 } == (written: 5, dropped: 1))
    }
}
