import Foundation

/// What callers without credentials can make the store keep: Wallet's log lines (`POST /v1/log`) and rewards
/// sign-ups (`POST …/personalize`). Each kind is counted in bytes by the store itself (triggers on its tables), so
/// the caps hold whoever writes, and retention deletes by age.
public enum UnauthenticatedKind: String, Sendable, CaseIterable {
    /// Wallet's diagnostic lines.
    case log
    /// Rewards sign-ups: the token, the holder's info and the signature returned.
    case personalization

    /// What one stored row costs beyond its text: the cap is on this plus the text's UTF-8 bytes, so a flood of
    /// empty lines fills it too.
    public static let rowOverheadBytes = 64
}

/// How much of one kind is stored now.
public struct UnauthenticatedUsage: Sendable, Equatable {
    /// Text bytes plus `UnauthenticatedKind.rowOverheadBytes` per row.
    public var bytes: Int
    public var rows: Int

    public init(bytes: Int, rows: Int) {
        self.bytes = bytes
        self.rows = rows
    }
}

/// One rewards sign-up as stored: the token Wallet sent, the holder's info and the signature returned, kept so a
/// repeat of the same sign-up gets the same signature and no second one is ever made for the pass.
public struct PersonalizationEnrollment: Sendable, Equatable {
    public var passTypeIdentifier: String
    public var serialNumber: String
    public var token: String
    /// The `requiredPersonalizationInfo` keys Apple documents, as sent.
    public var info: [String: String]
    /// Detached PKCS#7 (DER) over the token's UTF-8 bytes.
    public var signature: [UInt8]

    public init(
        passTypeIdentifier: String, serialNumber: String, token: String, info: [String: String], signature: [UInt8]
    ) {
        self.passTypeIdentifier = passTypeIdentifier
        self.serialNumber = serialNumber
        self.token = token
        self.info = info
        self.signature = signature
    }

    /// What the row counts against the cap (see `UnauthenticatedKind.rowOverheadBytes`), given its encoded info.
    static func storedBytes(token: String, encodedInfo: String, signature: [UInt8]) -> Int {
        token.utf8.count + encodedInfo.utf8.count + signature.count + UnauthenticatedKind.rowOverheadBytes
    }
}

/// What became of a sign-up the store was asked to keep.
public enum EnrollmentOutcome: Sendable, Equatable {
    /// Stored; the pass got a new tag (it is rendered without its sign-up files from now on).
    case stored(tag: Int64)
    /// The pass was personalized meanwhile (or earlier); the sign-up stored for it, when it is still kept.
    case alreadyPersonalized(PersonalizationEnrollment?)
    /// No such pass (any more).
    case noPass
    /// Storing it would take the sign-ups past their cap; nothing was written.
    case overCap
}

/// The bytes a batch of log lines adds to the usage of `.log`.
func logUsage(_ lines: [String]) -> Int {
    lines.reduce(0) { $0 + $1.utf8.count + UnauthenticatedKind.rowOverheadBytes }
}
