import Foundation

/// What `passmint trace SERIAL` and `GET /admin/v1/passes/{serial}/trace` show: the pass's versions, each
/// device's timeline and the diagnoses. `json()` is the `--json` form; `text()` the words for a support desk.
package struct PassTrace: Sendable, Encodable {
    /// One version of the pass.
    package struct Version: Sendable, Encodable {
        package var tag: String
        /// `Last-Modified` of this version, ISO 8601 UTC.
        package var lastModified: Date
        package var voided: Bool
        /// The record keys this version changed.
        package var changedRecord: [RecordChange]
        /// The pass fields whose value changed (rendered from the records), with their `changeMessage`; nil when
        /// the template could not render them.
        package var changedFields: [FieldChange]?
    }

    package struct RecordChange: Sendable, Encodable {
        package var key: String
        package var from: String?
        package var to: String?
    }

    package struct FieldChange: Sendable, Encodable, Equatable {
        package var key: String
        package var label: String?
        package var from: String?
        package var to: String?
        package var changeMessage: String?
    }

    /// One event of a timeline, its facts flattened (absent keys are left out of the JSON).
    package struct Event: Sendable, Encodable {
        package var at: Date
        package var kind: String
        package var device: String?
        package var tag: String?
        package var status: Int?
        package var created: Bool?
        package var pushToken: String?
        package var found: Bool?
        package var since: String?
        package var included: Bool?
        package var lastUpdated: String?
        package var ifModifiedSince: String?
        package var lastModified: String?
        package var reason: String?
        package var apnsID: String?
        package var apnsTimestamp: Date?
        package var authentication: String?
        package var line: String?
        /// How many identical events this one stands for (identical events that arrived together), when more than one.
        package var count: Int?
    }

    /// One device's events, oldest first.
    package struct Device: Sendable, Encodable {
        package var device: String
        /// Registered for the pass now.
        package var registered: Bool
        package var events: [Event]
    }

    package var serialNumber: String
    package var passTypeIdentifier: String
    package var webServiceURL: String?
    package var tag: String
    package var lastModified: Date
    package var voided: Bool
    /// Oldest first.
    package var versions: [Version]
    package var devices: [Device]
    /// Events no device can be named for: downloads (Wallet's download names no device) not just after a list
    /// of this device, log lines that name none.
    package var otherEvents: [Event]
    package var diagnoses: [TraceDiagnosis]
    /// How long after an accepted push the phone is expected to ask what changed, in seconds.
    package var windowSeconds: Int
    package var generatedAt: Date

    /// The JSON form (`--json`), keys sorted, dates ISO 8601.
    package func json() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        encoder.dateEncodingStrategy = .iso8601
        return Array((try? encoder.encode(self)) ?? Data("{}".utf8))
    }
}
