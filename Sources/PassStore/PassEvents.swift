import Foundation

/// What happened between a pass, the phones that hold it and APNs: the facts `passmint trace` explains.
package enum PassEventKind: String, Sendable, CaseIterable {
    /// A device registered for the pass (or registered again).
    case registered
    /// A device unregistered (the holder removed the pass, or turned off its updates).
    case unregistered
    /// A device asked which of its passes changed (one event per pass it holds of that pass type).
    case listed
    /// The pass was downloaded (Wallet's download names no device).
    case downloaded
    /// A push to a device holding the pass was answered by APNs (or failed to be sent).
    case pushed
    /// The device's own log (`POST /v1/log`) has a line naming the pass.
    case logged
}

/// The facts of one event, by kind. Never an authentication token; a push token only as a short prefix.
package enum PassEventDetail: Sendable, Hashable {
    /// `created`: 201 (new registration) or 200 (known); the push token's first characters.
    case registered(created: Bool, pushTokenPrefix: String)
    /// `found`: there was a registration to remove.
    case unregistered(found: Bool)
    /// The list request's `passesUpdatedSince` (nil: none), its status (200 or 204), whether this pass was in the
    /// answer, and the answer's `lastUpdated`.
    case listed(since: Int64?, status: Int, included: Bool, lastUpdated: Int64?)
    /// The download's `If-Modified-Since` (nil: none) as sent and as seconds since 1970 (nil: not an HTTP date),
    /// its status (200 or 304) and the `Last-Modified` served; the event's tag is the version served.
    case downloaded(ifModifiedSince: String?, ifModifiedSinceSeconds: Int64?, status: Int, lastModified: String)
    /// APNs' answer: HTTP status (0: none), `reason`, `apns-id`, its error body's `timestamp` (ms), and how the
    /// push authenticated ("certificate" or "token").
    case pushed(status: Int, reason: String?, apnsID: String?, apnsTimestamp: Int64?, authentication: String)
    /// One line of the device's log, cut to `PassEvent.maxLogLineLength`.
    case logged(line: String)

    package var kind: PassEventKind {
        switch self {
        case .registered: return .registered
        case .unregistered: return .unregistered
        case .listed: return .listed
        case .downloaded: return .downloaded
        case .pushed: return .pushed
        case .logged: return .logged
        }
    }
}

/// One recorded event of a pass.
package struct PassEvent: Sendable, Equatable {
    /// Log lines are kept up to this many characters.
    package static let maxLogLineLength = 500

    package var serial: String
    package var passType: String
    /// The device library ID, when the request named one (a download does not).
    package var device: String?
    package var at: Date
    /// The pass's tag the event concerns (pushed: the tag queued; downloaded: the tag served).
    package var tag: Int64?
    package var detail: PassEventDetail
    /// How many identical events this one stands for (identical events that arrive together, such as the
    /// downloads of one version after a push, are kept as one event with their count).
    package var count: Int

    package var kind: PassEventKind { detail.kind }

    package init(
        serial: String, passType: String, device: String?, at: Date, tag: Int64? = nil, detail: PassEventDetail,
        count: Int = 1
    ) {
        self.count = count
        self.serial = serial
        self.passType = passType
        self.device = device
        self.at = at
        self.tag = tag
        self.detail = detail
    }
}

extension PassEvent {
    /// The `registered` event a registration row stands for: a new registration is kept only as its row (so
    /// registering writes nothing more), and becomes a stored event when the row is deleted (unregistered, or its
    /// push token dead), so the trace keeps it.
    package static func registration(_ info: RegistrationInfo, serial: String, passType: String) -> PassEvent {
        PassEvent(
            serial: serial, passType: passType, device: info.deviceLibraryIdentifier, at: info.registeredAt,
            tag: info.tag, detail: .registered(created: true, pushTokenPrefix: info.pushTokenPrefix))
    }
}

/// A list request as the service saw it: stored as one `listed` event per pass the device holds of that type.
package struct ListRequest: Sendable, Equatable {
    package var device: String
    package var passType: String
    package var since: Int64?
    package var status: Int
    /// The serials in the answer (empty for 204).
    package var serials: [String]
    package var lastUpdated: Int64?
    package var at: Date
    /// How many identical list requests this one stands for (a device asking again with the same answer).
    package var count: Int

    package init(
        device: String, passType: String, since: Int64?, status: Int, serials: [String], lastUpdated: Int64?, at: Date,
        count: Int = 1
    ) {
        self.count = count
        self.device = device
        self.passType = passType
        self.since = since
        self.status = status
        self.serials = serials
        self.lastUpdated = lastUpdated
        self.at = at
    }
}

/// One version of a pass: written by the store itself whenever a pass gets a new tag (a trigger on `passes`).
package struct PassVersionRecord: Sendable, Equatable {
    package var tag: Int64
    /// Whole seconds since 1970 (the `Last-Modified` of this version).
    package var modifiedAtSeconds: Int64
    package var voided: Bool
    /// The record keys this version changed: key → (before, after); nil is "not in the record".
    package var changed: [String: (before: String?, after: String?)]

    package init(
        tag: Int64, modifiedAtSeconds: Int64, voided: Bool, changed: [String: (before: String?, after: String?)]
    ) {
        self.tag = tag
        self.modifiedAtSeconds = modifiedAtSeconds
        self.voided = voided
        self.changed = changed
    }

    package static func == (lhs: PassVersionRecord, rhs: PassVersionRecord) -> Bool {
        lhs.tag == rhs.tag && lhs.modifiedAtSeconds == rhs.modifiedAtSeconds && lhs.voided == rhs.voided
            && lhs.changed.count == rhs.changed.count
            && lhs.changed.allSatisfy { key, value in
                rhs.changed[key].map { $0.before == value.before && $0.after == value.after } ?? false
            }
    }
}

/// The bounded history of what happened to each pass (`passmint trace`). Events arrive in batches from a writer
/// off the request path; a pass never holds more than `keepPerPass` events: when a write could take it past that,
/// it is trimmed to its newest three quarters of them (`EventTrimLedger`).
package protocol PassEventStore: Sendable {
    /// Stores events and list requests (expanded to one event per registered pass of the device and type) and
    /// log lines (kept only for a pass that exists), in one transaction; then trims each pass written to that can
    /// hold more than `keepPerPass` events to its newest three quarters of them.
    func recordEvents(_ events: [PassEvent], lists: [ListRequest], keepPerPass: Int) throws
    /// A pass's events, oldest first.
    func passEvents(serial: String) throws -> [PassEvent]
    /// A pass's versions, oldest first (at most `PassEventLimits.versionsPerPass`).
    func passVersions(serial: String) throws -> [PassVersionRecord]
    /// Deletes events and versions from before `cutoff`; the rows deleted.
    func deleteEvents(before cutoff: Date) throws -> Int
}

/// Bounds the store keeps on its own.
package enum PassEventLimits {
    /// Versions kept per pass (the trigger that writes them drops older ones).
    package static let versionsPerPass = 100
}
