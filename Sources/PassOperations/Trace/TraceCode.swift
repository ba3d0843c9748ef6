import Foundation

/// The stable codes of `passmint trace`'s diagnoses: one per way a pass update fails to reach a phone. Scripts
/// match these; add codes, never rename one.
package enum TraceCode: String, Sendable, CaseIterable, Encodable, Comparable {
    /// No device ever registered for the pass.
    case noDeviceRegistered = "device.none-registered"
    /// APNs accepted a push, and the phone did not ask what changed within the window.
    case pushNotActedOn = "push.not-acted-on"
    /// The phone asked what changed after the change, and this serial was not in the answer.
    case listSerialMissing = "list.serial-missing"
    /// The phone downloaded the pass after the change and got 304 Not Modified.
    case downloadNotModified = "download.not-modified"
    /// The phone got the new version, but no changed field has a `changeMessage`: no notification was shown.
    case updateSilent = "update.silent"
    /// APNs: 400 BadDeviceToken.
    case apnsBadDeviceToken = "apns.bad-device-token"
    /// APNs: 400 DeviceTokenNotForTopic.
    case apnsTokenNotForTopic = "apns.token-not-for-topic"
    /// APNs: 403 (certificate or provider token refused).
    case apnsForbidden = "apns.forbidden"
    /// APNs: 410, the token is no longer active (the holder removed the pass).
    case apnsUnregistered = "apns.unregistered"
    /// The phone's own log names the pass with an error.
    case deviceLogError = "device.log-error"

    package static func < (lhs: TraceCode, rhs: TraceCode) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// One finding of a trace: what happened, in plain words, and what to do about it.
package struct TraceDiagnosis: Sendable, Equatable, Encodable {
    package var code: TraceCode
    /// The device it concerns, when one.
    package var device: String?
    /// When it happened (the event that shows it).
    package var at: Date?
    /// What happened.
    package var summary: String
    /// What to do.
    package var action: String
}
