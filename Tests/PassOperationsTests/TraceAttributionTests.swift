import Foundation
import Testing
@testable import PassStore
@testable import PassOperations

/// Which device a download is shown under: Wallet's download names none, so the trace takes the device that
/// listed the pass just before it and has not downloaded since.
@Suite("passmint trace: downloads attributed to devices")
struct TraceAttributionTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func listed(_ device: String, _ second: Double) -> PassEvent {
        PassEvent(
            serial: "S", passType: "pass.t", device: device, at: start.addingTimeInterval(second), tag: 1,
            detail: .listed(since: nil, status: 200, included: true, lastUpdated: 1))
    }

    static func downloaded(_ second: Double, count: Int = 1) -> PassEvent {
        PassEvent(
            serial: "S", passType: "pass.t", device: nil, at: start.addingTimeInterval(second), tag: 1,
            detail: .downloaded(ifModifiedSince: nil, ifModifiedSinceSeconds: nil, status: 200, lastModified: "x"),
            count: count)
    }

    /// (device, count) of each download the trace shows.
    static func downloads(_ events: [PassEvent]) -> [String] {
        PassTracer.attribute(events).compactMap { item in
            guard case .downloaded = item.event.detail else { return nil }
            return "\(item.device ?? "none")×\(item.event.count)"
        }
    }

    @Test("two phones that listed, then two downloads stored as one: one download each, not two for the last")
    func coalescedDownloadIsSplit() {
        let events = [Self.listed("A", 0), Self.listed("B", 0.2), Self.downloaded(0.4, count: 2)]
        #expect(Self.downloads(events) == ["A×1", "B×1"])
        // The event has the first download's time: a phone that listed just after it had the second one.
        let later = [Self.listed("B", 0), Self.downloaded(0.02, count: 2), Self.listed("A", 0.05), Self.downloaded(3)]
        #expect(Self.downloads(later) == ["B×1", "A×1", "A×1"])
        let shown = PassTracer.attribute(later).map { "\($0.event.kind.rawValue) \($0.device ?? "none")" }
        #expect(
            shown == ["listed B", "downloaded B", "listed A", "downloaded A", "downloaded A"],
            "A's share of the download is shown after A's list request")
    }

    @Test("a download goes to the phone that listed and has not downloaded yet, not to the one that did")
    func downloadGoesToWaitingDevice() {
        let events = [
            Self.listed("A", 0), Self.downloaded(0.1), Self.listed("B", 5), Self.listed("A", 6), Self.downloaded(7),
            Self.downloaded(7.5),
        ]
        #expect(Self.downloads(events) == ["A×1", "B×1", "A×1"])
    }

    @Test("a download no recent list explains: the latest phone to list within a minute, else no device")
    func unexplainedDownload() {
        let events = [Self.listed("A", 0), Self.downloaded(1), Self.downloaded(2), Self.downloaded(120)]
        #expect(Self.downloads(events) == ["A×1", "A×1", "none×1"])
        #expect(Self.downloads([Self.downloaded(1, count: 3)]) == ["none×3"])
        #expect(Self.downloads([Self.listed("A", 0), Self.downloaded(1, count: 3)]) == ["A×3"])
    }
}
