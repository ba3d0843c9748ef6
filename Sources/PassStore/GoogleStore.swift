import Foundation

/// A stored pass that also has a Google Wallet object: `serve` keeps that object current through the Google
/// outbox from then on (every new version of the pass queues one row, in the transaction that writes it).
package struct GoogleObjectLink: Sendable, Equatable {
    package var serialNumber: String
    /// The object's full ID, `<issuerId>.<suffix>`.
    package var objectID: String

    package init(serialNumber: String, objectID: String) {
        self.serialNumber = serialNumber
        self.objectID = objectID
    }
}

/// What the store knows of a pass's Google object.
package struct GoogleObjectState: Sendable, Equatable {
    package var serialNumber: String
    package var objectID: String
    /// The install figures' template name of the pass (`InstallStats.templateName`).
    package var template: String
    /// Google is known to hold the object (a write of it succeeded); until then a PATCH may meet 404.
    package var inserted: Bool
    /// The pass version last delivered to Google, nil before the first delivery.
    package var deliveredTag: Int64?
    /// The record of that version: what a change is compared with to decide whether it is announced.
    package var deliveredRecord: [String: String]?
    /// Someone holds the object in Google Wallet (the last callback was a save).
    package var saved: Bool
    /// Changes that would have notified but went silent (3 notifying messages per pass per 24 h).
    package var silentUpdates: Int

    package init(
        serialNumber: String, objectID: String, template: String, inserted: Bool = false, deliveredTag: Int64? = nil,
        deliveredRecord: [String: String]? = nil, saved: Bool = false, silentUpdates: Int = 0
    ) {
        self.serialNumber = serialNumber
        self.objectID = objectID
        self.template = template
        self.inserted = inserted
        self.deliveredTag = deliveredTag
        self.deliveredRecord = deliveredRecord
        self.saved = saved
        self.silentUpdates = silentUpdates
    }
}

/// What one Google outbox row asks for.
package enum GoogleJobKind: String, Sendable, Equatable {
    /// Bring the object of the pass `subject` (a serial) up to date: PATCH, insert on 404, announce a change.
    case object
    /// Insert or patch the class (or classes) of the template named `subject`, just published.
    case templateClass = "class"
}

/// How far a row got before its last attempt ended: a retry does not write twice what Google already took.
package enum GoogleJobStep: Int, Sendable, Equatable {
    case start = 0
    /// The object is written; only its announcement (`addMessage`) is left.
    case objectWritten = 1
}

/// One due Google outbox row, leased to one worker.
package struct GoogleJob: Sendable, Equatable {
    package let id: Int64
    package let kind: GoogleJobKind
    /// A serial (`.object`) or a template name (`.templateClass`).
    package let subject: String
    /// Earlier attempts that ended in a retry.
    package let attempts: Int
    /// An earlier claim ended without an answer being recorded (the process died, or its lease ran out): what it
    /// sent may have reached Google, so the worker looks before it writes again.
    package let inDoubt: Bool
    package let step: GoogleJobStep

    package init(id: Int64, kind: GoogleJobKind, subject: String, attempts: Int, inDoubt: Bool, step: GoogleJobStep) {
        self.id = id
        self.kind = kind
        self.subject = subject
        self.attempts = attempts
        self.inDoubt = inDoubt
        self.step = step
    }
}

/// What a finished object row delivered, recorded with the row's deletion in one transaction.
package struct GoogleDelivery: Sendable, Equatable {
    package enum Announcement: Sendable, Equatable {
        /// Nothing to announce.
        case none
        /// Sent with `addMessage` as `TEXT_AND_NOTIFY` (counts towards the 3 per 24 h).
        case notified
        /// Announced in Apple's terms, but the 24-hour budget was spent: a silent update, counted.
        case silenced
    }

    package var serialNumber: String
    /// The pass version sent.
    package var tag: Int64
    /// Its record (compared with the next version to decide whether that one is announced).
    package var record: [String: String]
    package var announcement: Announcement
    /// When it was delivered.
    package var at: Date

    package init(
        serialNumber: String, tag: Int64, record: [String: String], announcement: Announcement, at: Date
    ) {
        self.serialNumber = serialNumber
        self.tag = tag
        self.record = record
        self.announcement = announcement
        self.at = at
    }
}

/// A save or delete callback from Google, verified.
package struct GoogleCallbackEvent: Sendable, Equatable {
    package enum Kind: String, Sendable, Equatable {
        case save
        case delete = "del"
    }

    /// Google's `nonce`: a callback delivered twice carries the same one.
    package var nonce: String
    package var objectID: String
    package var kind: Kind
    /// `expTimeMillis`: the nonce is kept until then; a message past it is refused before it reaches the store.
    package var expiresAt: Date
    package var receivedAt: Date

    package init(nonce: String, objectID: String, kind: Kind, expiresAt: Date, receivedAt: Date) {
        self.nonce = nonce
        self.objectID = objectID
        self.kind = kind
        self.expiresAt = expiresAt
        self.receivedAt = receivedAt
    }
}

/// What the store made of a callback.
package enum GoogleCallbackOutcome: Sendable, Equatable {
    /// Counted in the figures of `template`.
    case counted(template: String)
    /// Its nonce was seen before: nothing counted again.
    case replay
    /// No stored pass has this object: kept as seen (so a replay is still known), counted nowhere.
    case unknownObject
}

/// An image served at its content address (`GET /images/<sha256>.<ext>`).
package struct PublicImage: Sendable, Equatable {
    /// The file name it was stored under (its extension gives the content type).
    package var path: String
    package var bytes: [UInt8]

    package init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }
}

/// The Google Wallet side of a store: which passes have a Google object, the Google outbox (rows leased like the
/// push outbox: deleted only after Google answered, so at least once), the notifying messages sent per pass,
/// callbacks seen, and images by content digest.
package protocol GoogleWalletStore: Sendable {
    /// Gives stored passes a Google object (replacing the object ID of a serial that had one). Serials that are
    /// not stored are skipped. From now on each new version of such a pass queues one Google outbox row.
    /// - Parameter queue: queue a row for each pass now (its object is written at once, not at its next change).
    /// - Returns: the serials linked.
    @discardableResult
    func linkGoogleObjects(_ links: [GoogleObjectLink], queue: Bool) throws -> Int
    func googleObject(serial: String) throws -> GoogleObjectState?
    /// Leases up to `limit` due rows; class rows come first (an object needs its class).
    func claimDueGoogleJobs(limit: Int, now: Date, lease: TimeInterval) throws -> [GoogleJob]
    /// Deletes a finished row; for an object row, records what was delivered (never moving the delivered version
    /// backwards), marks the object as held by Google and, for an announcement, the message or the silent update.
    func completeGoogleJob(id: Int64, delivery: GoogleDelivery?) throws
    /// Records that the row's object is written (a retry sends only the announcement).
    func advanceGoogleJob(id: Int64, to step: GoogleJobStep) throws
    /// Marks the pass's object as held by Google (it was inserted, or found there).
    func markGoogleObjectInserted(serial: String) throws
    /// Reschedules a row for `at`, counting the attempt and keeping `reason`.
    func retryGoogleJob(id: Int64, at: Date, reason: String) throws
    /// Gives up on a row (Google refused it for good, or it cannot be built); keeps `reason` in the log only.
    func abandonGoogleJob(id: Int64, reason: String) throws
    /// Notifying messages sent for the pass since `since`.
    func googleNotices(serial: String, since: Date) throws -> Int
    /// Rows waiting in the Google outbox.
    func googleOutboxDepth() throws -> Int
    /// Records a verified callback once per nonce and counts it in the install figures of the object's template,
    /// in one transaction; forgets nonces whose `expTimeMillis` has passed.
    func recordGoogleCallback(_ event: GoogleCallbackEvent) throws -> GoogleCallbackOutcome
    /// A template file or member photo whose bytes' lowercase hex SHA-256 starts with `digest` (16 to 64 hex
    /// digits; image URLs carry the first 32).
    func publicImage(digest: String) throws -> PublicImage?
}
