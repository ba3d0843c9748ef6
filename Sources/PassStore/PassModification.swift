import Foundation

/// A pass's new state, decided from its current one inside `PassStore.modifyPass(serial:_:)`.
package struct PassModification: Sendable, Equatable {
    /// The complete new record.
    package var record: [String: String]
    /// The pass's new per-record images (replacing all of them), nil to keep the stored ones.
    package var images: [String: [UInt8]]?
    /// The new voided state, nil to keep it.
    package var voided: Bool?

    package init(record: [String: String], images: [String: [UInt8]]? = nil, voided: Bool? = nil) {
        self.record = record
        self.images = images
        self.voided = voided
    }
}

/// What `PassStore.modifyPass(serial:_:)` did.
package struct PassModificationOutcome: Sendable {
    /// The pass as it was before the change.
    package var previous: StoredPass
    /// The pass as stored now (equal to `previous` when nothing changed).
    package var pass: StoredPass
    /// False when the new state equals the stored one: no new tag, no push.
    package var changed: Bool
    /// Outbox rows written for this change.
    package var pushesQueued: Int
    /// Registered devices that got no new row because a push for them is already waiting: it makes the phone
    /// fetch this version too.
    package var pushesAlreadyPending: Int

    package init(
        previous: StoredPass, pass: StoredPass, changed: Bool, pushesQueued: Int, pushesAlreadyPending: Int
    ) {
        self.previous = previous
        self.pass = pass
        self.changed = changed
        self.pushesQueued = pushesQueued
        self.pushesAlreadyPending = pushesAlreadyPending
    }
}
