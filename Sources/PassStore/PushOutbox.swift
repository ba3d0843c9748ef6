import Foundation

/// One due push notification, leased from the outbox.
package struct PushJob: Sendable, Equatable {
    package let id: Int64
    package let pushToken: String
    package let passTypeIdentifier: String
    package let attempts: Int

    package init(id: Int64, pushToken: String, passTypeIdentifier: String, attempts: Int) {
        self.id = id
        self.pushToken = pushToken
        self.passTypeIdentifier = passTypeIdentifier
        self.attempts = attempts
    }
}

/// APNs' answer to one outbox row, recorded as a `pushed` event of every pass the device holds of that type.
package struct PushAttempt: Sendable, Equatable {
    package var outboxID: Int64
    /// HTTP status; 0 when nothing was received.
    package var status: Int
    package var reason: String?
    package var apnsID: String?
    /// The error body's `timestamp` (410), milliseconds since 1970.
    package var apnsTimestamp: Int64?
    /// "certificate" or "token".
    package var authentication: String
    package var at: Date
    /// The answer deletes the registrations of the push's token (the token is dead): they are stored as
    /// `registered` events with the answer, so the trace keeps them.
    package var endsRegistrations: Bool

    package init(
        outboxID: Int64, status: Int, reason: String?, apnsID: String?, apnsTimestamp: Int64?, authentication: String,
        at: Date, endsRegistrations: Bool = false
    ) {
        self.endsRegistrations = endsRegistrations
        self.outboxID = outboxID
        self.status = status
        self.reason = reason
        self.apnsID = apnsID
        self.apnsTimestamp = apnsTimestamp
        self.authentication = authentication
        self.at = at
    }
}

/// The durable queue of pending pushes that the pusher drains.
package protocol PushOutbox: Sendable {
    /// Leases up to `limit` due rows (sets `claimed_until = now + lease`) so a concurrent pusher does not take
    /// them; rows that are neither completed, retried nor dropped become due again after the lease.
    func claimDuePushes(limit: Int, now: Date, lease: TimeInterval) throws -> [PushJob]
    /// Deletes a delivered row.
    func completePush(id: Int64) throws
    /// Deletes delivered rows (one transaction where the store can).
    func completePushes(ids: [Int64]) throws
    /// Reschedules a row for `at`, incrementing its attempts and recording `reason`.
    func retryPush(id: Int64, at: Date, reason: String) throws
    /// Deletes the row and every registration that uses `pushToken` (APNs 410 / BadDeviceToken).
    func dropPush(id: Int64, deletingRegistrationsFor pushToken: String, reason: String) throws
    /// Gives up on a row APNs will never accept (e.g. BadTopic): deletes it, keeps the registrations, records
    /// `reason` in the history where the store keeps one. Default: `completePush`.
    func abandonPush(id: Int64, reason: String) throws
    /// Records APNs' answers as events of the passes of each row's devices (before the rows are completed or
    /// dropped), keeping at most `keepPerPass` events per pass. Default: nothing (an outbox without events).
    func recordPushAttempts(_ attempts: [PushAttempt], keepPerPass: Int) throws
}

extension PushOutbox {
    package func recordPushAttempts(_ attempts: [PushAttempt], keepPerPass: Int) throws {}

    package func abandonPush(id: Int64, reason: String) throws {
        try completePush(id: id)
    }

    package func completePushes(ids: [Int64]) throws {
        for id in ids { try completePush(id: id) }
    }
}
