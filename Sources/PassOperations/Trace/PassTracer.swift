import Foundation
import PassMint
import PassStore

/// Builds a pass's trace from what the store recorded: its versions, the events of its devices and pushes, and
/// the diagnoses those facts support.
package struct PassTracer: Sendable {
    /// A download this soon after a device listed the pass is taken to be that device's (Wallet's download names
    /// no device; it follows the list request at once).
    static let downloadAttribution: TimeInterval = 60
    /// How far apart downloads stored as one event may have arrived: they come from one batch of the event
    /// writer, which takes what queued while the previous batch was written.
    static let coalescedSpan: TimeInterval = 5

    package let store: any PassStore
    package let events: any PassEventStore
    package let templates: (any TemplateVersionStore)?

    package init(store: any PassStore, events: any PassEventStore, templates: (any TemplateVersionStore)?) {
        self.store = store
        self.events = events
        self.templates = templates
    }

    /// The trace of `serial`, or nil when no pass has that serial.
    /// - Parameters:
    ///   - now: the time "within the window" is judged at.
    ///   - window: how long after an accepted push the phone is expected to have asked what changed.
    /// - Throws: `OperationError.store` when the store cannot be read.
    package func trace(serial: String, now: Date = Date(), window: TimeInterval = 300) throws(OperationError)
        -> PassTrace?
    {
        let details: PassDetails?
        let versions: [PassVersionRecord]
        let recorded: [PassEvent]
        do {
            details = try store.details(serial: serial)
            versions = try events.passVersions(serial: serial)
            recorded = try events.passEvents(serial: serial)
        } catch {
            throw .store(.readingTrace(serial: serial), underlying: error)
        }
        guard let details else { return nil }
        let pass = details.pass
        let history = VersionHistory(pass: pass, versions: versions, templates: templates)
        let attributed = Self.attribute(Self.withRegistrations(recorded, details.registrations, of: pass))
        let registeredNow = Set(details.registrations.map(\.deviceLibraryIdentifier))
        var devices: [String: [PassTrace.Event]] = [:]
        var other: [PassTrace.Event] = []
        for (event, device) in attributed {
            let view = Self.view(event, device: device)
            if let device { devices[device, default: []].append(view) } else { other.append(view) }
        }
        for device in registeredNow where devices[device] == nil { devices[device] = [] }
        let diagnoses = TraceDiagnostics(
            pass: pass, history: history, events: attributed, registeredNow: registeredNow, now: now, window: window
        ).diagnoses()
        return PassTrace(
            serialNumber: pass.serialNumber, passTypeIdentifier: pass.passTypeIdentifier,
            webServiceURL: pass.webServiceURL, tag: String(pass.tag), lastModified: pass.modifiedAt,
            voided: pass.voided, versions: history.views,
            devices: devices.keys.sorted().map {
                PassTrace.Device(device: $0, registered: registeredNow.contains($0), events: devices[$0] ?? [])
            },
            otherEvents: other, diagnoses: diagnoses, windowSeconds: Int(window), generatedAt: now)
    }

    /// The recorded events and, in time order among them, the `registered` event of each registration the pass
    /// holds now (a registration row is its own record; it becomes a stored event only when deleted). A row a
    /// stored event already stands for (the same device's new registration in the same second, as stores written
    /// before rows kept their tag recorded it) is not shown twice.
    static func withRegistrations(_ recorded: [PassEvent], _ registrations: [RegistrationInfo], of pass: StoredPass)
        -> [PassEvent]
    {
        struct Key: Hashable {
            var device: String
            var second: Int64
            init(_ device: String, _ at: Date) { (self.device, second) = (device, Int64(at.timeIntervalSince1970)) }
        }
        let stored = Set(
            recorded.compactMap { event -> Key? in
                guard case .registered(true, _) = event.detail, let device = event.device else { return nil }
                return Key(device, event.at)
            })
        let live = registrations.filter { !stored.contains(Key($0.deviceLibraryIdentifier, $0.registeredAt)) }.map {
            PassEvent.registration($0, serial: pass.serialNumber, passType: pass.passTypeIdentifier)
        }
        guard !live.isEmpty else { return recorded }
        // Stable: a row's whole second sorts before the events of that second it came before.
        return (live + recorded).enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }
            .map(\.element)
    }

    /// Each event with the device it is taken to be of: its own, or for a download, the device that listed the
    /// pass (in the answer) just before it and has not downloaded since. Downloads of one version that arrived
    /// together are stored as one event with a count, at the first one's time: it is split over that many such
    /// devices, oldest list first, then devices that listed within `coalescedSpan` after it.
    static func attribute(_ events: [PassEvent]) -> [(event: PassEvent, device: String?)] {
        let lists: [(index: Int, device: String, at: Date)] = events.enumerated().compactMap { index, event in
            guard case .listed(_, _, true, _) = event.detail, let device = event.device else { return nil }
            return (index, device, event.at)
        }
        // Listed the pass in the answer and not yet given a download, oldest first.
        var waiting: [(device: String, at: Date)] = []
        // List requests whose download was stored with an earlier one (they wait for no other).
        var servedEarly = Set<Int>()
        var lastList: (device: String, at: Date)?
        var out: [(event: PassEvent, device: String?)] = []
        for (index, event) in events.enumerated() {
            if case .listed(_, _, true, _) = event.detail, let device = event.device {
                waiting.removeAll { $0.device == device }
                if !servedEarly.contains(index) { waiting.append((device, event.at)) }
                lastList = (device, event.at)
            }
            guard case .downloaded = event.detail else {
                out.append((event, event.device))
                continue
            }
            waiting.removeAll { event.at.timeIntervalSince($0.at) > downloadAttribution }
            // Each with the time of its download: a device that listed after the event's time downloaded after
            // its list request (within the batch; a millisecond later is as near as the store can tell).
            var takers = waiting.filter { $0.at <= event.at }.prefix(event.count).map { ($0.device, event.at) }
            waiting.removeAll { waiter in takers.contains { $0.0 == waiter.device } }
            for list in lists where takers.count < event.count && event.count > 1 && list.index > index {
                guard list.at.timeIntervalSince(event.at) <= coalescedSpan else { break }
                guard !takers.contains(where: { $0.0 == list.device }), !servedEarly.contains(list.index) else {
                    continue
                }
                takers.append((list.device, list.at.addingTimeInterval(0.001)))
                servedEarly.insert(list.index)
            }
            guard !takers.isEmpty else {
                // A download no fresh list request explains: the latest device to list, when recent.
                let recent = lastList.flatMap {
                    $0.at <= event.at && event.at.timeIntervalSince($0.at) <= downloadAttribution ? $0.device : nil
                }
                out.append((event, recent))
                continue
            }
            for (n, (device, at)) in takers.enumerated() {
                var share = event
                share.count = n == takers.count - 1 ? event.count - (takers.count - 1) : 1
                share.at = at
                out.append((share, device))
            }
        }
        // In time order again (a share may have moved after the events that followed the stored one); ties
        // keep their order.
        return out.enumerated().sorted { ($0.element.event.at, $0.offset) < ($1.element.event.at, $1.offset) }
            .map(\.element)
    }

    static func view(_ event: PassEvent, device: String?) -> PassTrace.Event {
        var view = PassTrace.Event(at: event.at, kind: event.kind.rawValue)
        view.device = event.device == nil ? device : nil
        view.tag = event.tag.map(String.init)
        view.count = event.count > 1 ? event.count : nil
        switch event.detail {
        case .registered(let created, let prefix):
            view.created = created
            view.pushToken = prefix
        case .unregistered(let found):
            view.found = found
        case .listed(let since, let status, let included, let lastUpdated):
            view.since = since.map(String.init)
            view.status = status
            view.included = included
            view.lastUpdated = lastUpdated.map(String.init)
        case .downloaded(let ifModifiedSince, _, let status, let lastModified):
            view.ifModifiedSince = ifModifiedSince
            view.status = status
            view.lastModified = lastModified
        case .pushed(let status, let reason, let apnsID, let timestamp, let authentication):
            view.status = status
            view.reason = reason
            view.apnsID = apnsID
            view.apnsTimestamp = timestamp.map { Date(timeIntervalSince1970: Double($0) / 1000) }
            view.authentication = authentication
        case .logged(let line):
            view.line = line
        }
        return view
    }
}

extension PassTrace.Event {
    init(at: Date, kind: String) {
        self.init(
            at: at, kind: kind, device: nil, tag: nil, status: nil, created: nil, pushToken: nil, found: nil,
            since: nil, included: nil, lastUpdated: nil, ifModifiedSince: nil, lastModified: nil, reason: nil,
            apnsID: nil, apnsTimestamp: nil, authentication: nil, line: nil, count: nil)
    }
}
