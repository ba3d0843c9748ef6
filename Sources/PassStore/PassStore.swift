import Foundation

/// One issued pass as the update service stores it: enough to re-render it and to authenticate the phone.
package struct StoredPass: Sendable, Equatable {
    package var serialNumber: String
    package var passTypeIdentifier: String
    /// The template folder the pass was issued from (re-rendering uses it).
    package var templatePath: String
    /// The flat record the template was filled with.
    package var record: [String: String]
    /// The pass's `authenticationToken`; never logged.
    package var authenticationToken: String
    /// The update tag of this version (assigned by the store from a monotonic sequence).
    package var tag: Int64
    /// When this version was written, in whole seconds; every version gets a strictly later second.
    package var modifiedAt: Date
    package var voided: Bool
    /// The `webServiceURL` the pass was issued with (nil: a pass the service does not update).
    package var webServiceURL: String?
    /// Issued with the legacy `generic` fallback derived from `posterGeneric`; re-renders keep it.
    package var compatiblePass: Bool
    /// The pass's per-record images (file name → PNG bytes: a member photo's `thumbnail.png`, `@2x`, `@3x`),
    /// placed into every re-render so the original photo is not needed.
    package var images: [String: [UInt8]]
    /// The holder signed up (rewards enrollment): the pass is rendered without its sign-up files, and the
    /// personalize endpoint signs nothing more for it. Set by the store, never by an insert.
    package var personalized: Bool
    /// The pass's Google Wallet object ID (`<issuerId>.<suffix>`): `insertPasses` and `reissuePasses` link it in
    /// the same transaction (see `GoogleWalletStore.linkGoogleObjects`), so `serve` keeps that object current.
    /// Written only: reads leave it nil (`GoogleWalletStore.googleObject(serial:)` tells what is linked).
    package var googleObjectID: String?

    package init(
        serialNumber: String, passTypeIdentifier: String, templatePath: String, record: [String: String],
        authenticationToken: String, tag: Int64 = 0, modifiedAt: Date = Date(timeIntervalSince1970: 0),
        voided: Bool = false, webServiceURL: String? = nil, compatiblePass: Bool = false,
        images: [String: [UInt8]] = [:], personalized: Bool = false, googleObjectID: String? = nil
    ) {
        self.personalized = personalized
        self.googleObjectID = googleObjectID
        self.webServiceURL = webServiceURL
        self.compatiblePass = compatiblePass
        self.images = images
        self.serialNumber = serialNumber
        self.passTypeIdentifier = passTypeIdentifier
        self.templatePath = templatePath
        self.record = record
        self.authenticationToken = authenticationToken
        self.tag = tag
        self.modifiedAt = modifiedAt
        self.voided = voided
    }
}

/// What the hot HTTP paths need about a pass, without decoding its record.
package struct PassVersion: Sendable, Equatable {
    package var authenticationToken: String
    package var tag: Int64
    /// Whole seconds since 1970 of this version (the HTTP `Last-Modified`).
    package var modifiedAtSeconds: Int64

    package init(authenticationToken: String, tag: Int64, modifiedAtSeconds: Int64) {
        self.authenticationToken = authenticationToken
        self.tag = tag
        self.modifiedAtSeconds = modifiedAtSeconds
    }
}

/// Whether a registration was new.
package enum RegistrationOutcome: Sendable {
    case created, alreadyRegistered
}

/// A device registered for a pass: what the admin API shows (device and time), and for the trace the pass's tag
/// the device registered at and its push token's redacted prefix (never the token).
package struct RegistrationInfo: Sendable, Equatable {
    package var deviceLibraryIdentifier: String
    package var registeredAt: Date
    /// The pass's tag when the device registered; nil for a registration stored before the tag was kept.
    package var tag: Int64?
    /// `ServiceLog.redacted(pushToken:)` of the device's push token.
    package var pushTokenPrefix: String

    package init(deviceLibraryIdentifier: String, registeredAt: Date, tag: Int64?, pushTokenPrefix: String) {
        self.deviceLibraryIdentifier = deviceLibraryIdentifier
        self.registeredAt = registeredAt
        self.tag = tag
        self.pushTokenPrefix = pushTokenPrefix
    }
}

/// One past push attempt of a pass, as shown by the admin API.
package struct PushHistoryEntry: Sendable, Equatable {
    package var result: PushHistoryResult
    package var tag: Int64
    package var at: Date
    package var detail: String

    package init(result: PushHistoryResult, tag: Int64, at: Date, detail: String) {
        self.result = result
        self.tag = tag
        self.at = at
        self.detail = detail
    }
}

/// What became of one push attempt; `rawValue` is what the store and the admin view hold.
package enum PushHistoryResult: String, Sendable, Equatable {
    /// APNs accepted it.
    case sent
    /// Rescheduled after a transient refusal.
    case retry
    /// The token is dead; its registrations were deleted.
    case dropped
    /// Given up on (e.g. BadTopic); the registrations were kept.
    case failed
}

/// Everything the admin `GET /admin/v1/passes/{serial}` shows.
package struct PassDetails: Sendable, Equatable {
    package var pass: StoredPass
    package var registrations: [RegistrationInfo]
    /// Newest first, at most 100.
    package var pushHistory: [PushHistoryEntry]
    /// Rows still waiting in the outbox for this pass.
    package var pendingPushes: Int

    package init(
        pass: StoredPass, registrations: [RegistrationInfo], pushHistory: [PushHistoryEntry], pendingPushes: Int
    ) {
        self.pass = pass
        self.registrations = registrations
        self.pushHistory = pushHistory
        self.pendingPushes = pendingPushes
    }
}

/// Storage of passes, registrations, logs and the push outbox: `SQLiteStore` (one file, the default) or
/// `PostgresStore` (one database shared by several `serve` instances).
package protocol PassStore: Sendable {
    /// Stores new passes (or replaces passes with the same serial, images included) in one transaction, assigning
    /// each a fresh tag and `modifiedAt`; the `tag` and `modifiedAt` of the arguments are ignored.
    func insertPasses(_ passes: [StoredPass]) throws
    func pass(passType: String, serial: String) throws -> StoredPass?
    func pass(serial: String) throws -> StoredPass?
    /// Token, tag and modification second only: the fast path of downloads and 304s.
    func passVersion(passType: String, serial: String) throws -> PassVersion?
    /// Registers a device for a pass at the pass's `tag`; a known device gets its push token replaced. The row is
    /// the registration's record (its event in a trace): nothing else is written for it.
    func register(device: String, passType: String, serial: String, pushToken: String, tag: Int64) throws
        -> RegistrationOutcome
    /// Removes a registration (and the device once it has none left); the registration removed, nil when there
    /// was none.
    @discardableResult
    func unregister(device: String, passType: String, serial: String) throws -> RegistrationInfo?
    /// The device's serials of `passType` changed after tag `since` (all of them when nil) and the newest tag
    /// among them; nil when there are none (HTTP 204).
    func updatedSerials(device: String, passType: String, since: Int64?) throws -> (
        serials: [String], lastUpdated: Int64
    )?
    /// Replaces a pass's record, gives it a new tag and modification second and queues one push per registered
    /// device, all in one transaction.
    /// - Throws: `StoreError.passNotFound` when no pass has this serial.
    /// `images`: the pass's new per-record images (replacing all of them), nil to keep the stored ones.
    /// `voided`: the pass's new voided state (a cancelled card), nil to keep it.
    func updateRecord(serial: String, record: [String: String], images: [String: [UInt8]]?, voided: Bool?) throws
        -> (pass: StoredPass, pushesQueued: Int)
    /// Reads the pass with its row locked, asks `change` for its new state, and stores that state when it differs
    /// (a new tag and modification second, one push per registered device), all in one transaction: changes made
    /// at the same moment, by other processes too, apply one after the other and none is lost. A state equal to
    /// the stored one is left alone (no tag, no push).
    /// - Throws: `StoreError.passNotFound` when no pass has this serial; whatever `change` throws (nothing is
    ///   stored then).
    func modifyPass(serial: String, _ change: (StoredPass) throws -> PassModification) throws
        -> PassModificationOutcome
    /// Stores passes issued again under serials already stored, keeping each one's authentication token,
    /// registrations, distribution link and install figures: template, record, images, voided state and web
    /// service are replaced, with a new tag and one push per registered device. A serial no longer stored is
    /// stored as new. One transaction.
    /// - Returns: the outbox rows queued per serial.
    func reissuePasses(_ passes: [StoredPass]) throws -> [String: Int]
    /// Stores Wallet log lines, unless that would take the stored lines past `maxStoredBytes` (counted as
    /// `UnauthenticatedUsage` counts); false: nothing was written.
    func appendLogs(_ lines: [String], maxStoredBytes: Int) throws -> Bool
    /// The newest stored Wallet log lines, oldest first.
    func recentLogs(limit: Int) throws -> [String]
    /// The rewards sign-up of a personalized pass (with the signature that was returned); nil when the pass is not
    /// personalized or its sign-up was deleted by retention.
    func enrollment(passType: String, serial: String) throws -> PersonalizationEnrollment?
    /// Stores a rewards sign-up and marks its pass personalized (a new tag and modification second, pushes
    /// queued), in one transaction; nothing is written when the pass is already personalized, is gone, or when
    /// the sign-ups would pass `maxStoredBytes`.
    func storeEnrollment(_ enrollment: PersonalizationEnrollment, maxStoredBytes: Int) throws -> EnrollmentOutcome
    /// The personalization info stored for a serial, newest first.
    func personalizations(serial: String) throws -> [[String: String]]
    /// What callers without credentials have made the store keep, per kind.
    func unauthenticatedUsage() throws -> [UnauthenticatedKind: UnauthenticatedUsage]
    /// Deletes the log lines and sign-ups stored before `cutoff` (retention); the rows deleted per kind. A
    /// personalized pass stays personalized.
    func deleteUnauthenticated(storedBefore cutoff: Date) throws -> [UnauthenticatedKind: Int]
    func registrationsCount() throws -> Int
    func outboxDepth() throws -> Int
    /// When the oldest push still in the outbox was first due (queued, or first tried); nil when it is empty.
    func oldestPendingPush() throws -> Date?
    /// How many passes are stored per pass type identifier (a renewed certificate must cover each of them).
    func passTypeCounts() throws -> [String: Int]
    func details(serial: String) throws -> PassDetails?
    /// The install figures of the days and template `query` asks for (see `InstallDay`), ordered by template
    /// and day.
    func installDays(_ query: InstallStatsQuery) throws -> [InstallDay]
    /// Per template, the figures summed over all days (`activeDevices`: now); cheap enough to poll every few
    /// seconds (one row per template and day is read, not the registrations).
    func installTotals() throws -> [InstallTotals]
}

extension PassStore {
    /// The days `query` asks for and their sums per template.
    package func installReport(_ query: InstallStatsQuery) throws -> InstallReport {
        InstallReport(days: try installDays(query))
    }

    /// Stores Wallet log lines with no cap (tools and tests; the service passes its cap).
    package func appendLogs(_ lines: [String]) throws {
        _ = try appendLogs(lines, maxStoredBytes: .max)
    }

    /// `updateRecord(serial:record:images:voided:)` keeping the stored images and the voided state.
    package func updateRecord(serial: String, record: [String: String]) throws -> (pass: StoredPass, pushesQueued: Int)
    {
        try updateRecord(serial: serial, record: record, images: nil, voided: nil)
    }

    /// `updateRecord(serial:record:images:voided:)` keeping the voided state.
    package func updateRecord(serial: String, record: [String: String], images: [String: [UInt8]]?) throws -> (
        pass: StoredPass, pushesQueued: Int
    ) {
        try updateRecord(serial: serial, record: record, images: images, voided: nil)
    }

    /// Default for stores without an outbox.
    package func oldestPendingPush() throws -> Date? { nil }

    /// Default for stores without a cheaper query.
    package func passVersion(passType: String, serial: String) throws -> PassVersion? {
        guard let pass = try pass(passType: passType, serial: serial) else { return nil }
        return PassVersion(
            authenticationToken: pass.authenticationToken, tag: pass.tag,
            modifiedAtSeconds: Int64(pass.modifiedAt.timeIntervalSince1970))
    }
}
