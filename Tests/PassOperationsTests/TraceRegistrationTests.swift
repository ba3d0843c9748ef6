import Foundation
import PassMintTestSupport
import Testing
@testable import PassOperations
@testable import PassStore

/// A registration is kept as its row (a new registration writes no event): the trace shows each row the pass holds
/// as a `registered` event, in time order among the stored events, and not twice when a stored event already
/// stands for it.
@Suite("passmint trace: registrations from their rows")
struct TraceRegistrationTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let pass = samplePass("S")

    static func event(_ device: String, _ second: Double, _ detail: PassEventDetail) -> PassEvent {
        PassEvent(
            serial: "S", passType: pass.passTypeIdentifier, device: device, at: start.addingTimeInterval(second),
            tag: 3, detail: detail)
    }

    static func row(_ device: String, _ second: Double, tag: Int64?) -> RegistrationInfo {
        RegistrationInfo(
            deviceLibraryIdentifier: device, registeredAt: start.addingTimeInterval(second), tag: tag,
            pushTokenPrefix: "ab12cd34…")
    }

    static func shown(_ events: [PassEvent]) -> [String] {
        events.map { event in
            var text = "\(event.device ?? "-") \(event.kind.rawValue) \(Int(event.at.timeIntervalSince(start)))"
            if case .registered(let created, let prefix) = event.detail { text += " \(created) \(prefix)" }
            return text + " tag \(event.tag.map(String.init) ?? "-")"
        }
    }

    @Test("each row is a registered event with its time, tag and push token prefix, in time order")
    func rowsAreEvents() {
        let recorded = [
            Self.event("A", 5, .listed(since: nil, status: 200, included: true, lastUpdated: 3)),
            Self.event("B", 20, .registered(created: false, pushTokenPrefix: "ab12cd34…")),
        ]
        let rows = [Self.row("A", 4, tag: 2), Self.row("B", 10, tag: nil)]
        #expect(
            Self.shown(PassTracer.withRegistrations(recorded, rows, of: Self.pass)) == [
                "A registered 4 true ab12cd34… tag 2", "A listed 5 tag 3", "B registered 10 true ab12cd34… tag -",
                "B registered 20 false ab12cd34… tag 3",
            ])
    }

    @Test("a row a stored new-registration event of the same device and second stands for is shown once")
    func storedEventNotRepeated() {
        // A store written before registration rows kept their tag recorded each new registration as an event.
        let recorded = [Self.event("A", 4.6, .registered(created: true, pushTokenPrefix: "ab12cd34…"))]
        let rows = [Self.row("A", 4, tag: nil), Self.row("B", 4, tag: 3)]
        #expect(
            Self.shown(PassTracer.withRegistrations(recorded, rows, of: Self.pass)) == [
                "B registered 4 true ab12cd34… tag 3", "A registered 4 true ab12cd34… tag 3",
            ])
    }
}
