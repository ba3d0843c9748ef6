import Foundation
import PassStore

/// What to do with an outbox row after APNs answered (or failed to answer).
package enum PushOutcome: Sendable, Equatable {
    /// 200: APNs accepted the notification.
    case delivered
    /// 410, or 400 `BadDeviceToken` / `DeviceTokenNotForTopic`: the token is dead; delete its registrations.
    case unregistered(reason: PushReason)
    /// 429, 5xx or a transport error: try again later.
    case retry(reason: PushReason)
    /// 403 and other 4xx: a request or credential problem; retried slowly, then given up.
    case failed(reason: PushReason)

    /// The outcome without its reason; `Kind.rawValue` is the metrics label.
    package enum Kind: String, Sendable, CaseIterable {
        case delivered, unregistered, retry, failed
    }

    package var kind: Kind {
        switch self {
        case .delivered: return .delivered
        case .unregistered: return .unregistered
        case .retry: return .retry
        case .failed: return .failed
        }
    }

    /// Metrics label: `delivered`, `unregistered`, `retry` or `failed`.
    package var label: String { kind.rawValue }

    /// Maps an APNs HTTP answer to an outcome (Apple's "Handling notification responses" table).
    /// - Parameters:
    ///   - status: HTTP status code.
    ///   - reason: the `reason` of the JSON error body, if any.
    package static func classify(status: Int, reason: String?) -> PushOutcome {
        let why: PushReason = reason.map(PushReason.apns) ?? .status(status)
        switch status {
        case 200..<300: return .delivered
        case 410: return .unregistered(reason: .apns(reason ?? "Unregistered"))
        case 400 where reason == "BadDeviceToken" || reason == "DeviceTokenNotForTopic":
            return .unregistered(reason: why)
        case 429, 500..<600: return .retry(reason: why)
        default: return .failed(reason: why)
        }
    }
}

/// The answer for one `PushJob`.
package struct PushResult: Sendable, Equatable {
    /// The job this answers.
    package let job: PushJob
    /// HTTP status, or 0 when nothing was received (transport error, or not sent because the token is invalid).
    package let status: Int
    /// The `apns-id` response header, when present.
    package let apnsID: String?
    /// What the pusher does with the row.
    package let outcome: PushOutcome
    /// The `timestamp` of APNs' error body (410: since when the token is no longer valid), ms since 1970.
    package let apnsTimestamp: Int64?

    /// Creates a result.
    package init(job: PushJob, status: Int, apnsID: String?, outcome: PushOutcome, apnsTimestamp: Int64? = nil) {
        self.job = job
        self.status = status
        self.apnsID = apnsID
        self.outcome = outcome
        self.apnsTimestamp = apnsTimestamp
    }

    /// Why the push was not delivered, nil for a delivered push.
    package var reason: PushReason? {
        switch outcome {
        case .delivered: return nil
        case .unregistered(let reason), .retry(let reason), .failed(let reason): return reason
        }
    }
}
