/// What issuing a record did to the store: a serial stored for the first time, a stored pass replaced by a new
/// version (same authentication token), or a stored pass the record leaves as it was. The report's `status`.
public enum IssueKind: String, Sendable {
    case issued, updated, unchanged
}

/// A pass already stored under a serial that a batch (or `generate`) issues again: the new pass keeps its token,
/// and this tells whether anything changed.
public struct StoredIssue: Sendable, Equatable {
    public var authenticationToken: String
    public var passTypeIdentifier: String
    /// The record as the pipeline holds it (`IssueRequest.compatiblePassKey` included when it has the fallback).
    public var record: [String: String]
    /// The pass's per-record images (file name → PNG bytes), kept when the new record names none for their slot.
    public var images: [String: [UInt8]]
    public var webServiceURL: String?
    public var voided: Bool
    /// The pass was stored from the template (name and version) this run issues with.
    public var sameTemplate: Bool

    public init(
        authenticationToken: String, passTypeIdentifier: String, record: [String: String],
        images: [String: [UInt8]], webServiceURL: String?, voided: Bool, sameTemplate: Bool
    ) {
        self.authenticationToken = authenticationToken
        self.passTypeIdentifier = passTypeIdentifier
        self.record = record
        self.images = images
        self.webServiceURL = webServiceURL
        self.voided = voided
        self.sameTemplate = sameTemplate
    }

    /// True when a pass issued again from this run's record (its `record` and `images` as `IssuedPass` holds
    /// them) is this stored pass exactly: same template, record, images and web service. Storing it would change
    /// nothing, so it is neither stored nor pushed.
    public func isUnchanged(record: [String: String], images: [String: [UInt8]], webServiceURL: String?) -> Bool {
        sameTemplate && webServiceURL == self.webServiceURL && images == self.images
            && self.record == record.filter { !$0.key.hasPrefix("@") || $0.key == IssueRequest.compatiblePassKey }
    }
}
