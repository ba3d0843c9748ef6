import Foundation
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
}
