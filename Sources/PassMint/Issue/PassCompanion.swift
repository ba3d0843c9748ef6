import PassModel
import PassTemplates

/// A second rendering of every pass a batch issues (a Google Wallet save link), made on the worker that issued
/// the pass, before its file is written: its report members go into the pass's report line, and what it keeps is
/// stored with the pass (`--db`). A failure fails the record like a bad value, reported with its line.
public protocol PassCompanion: Sendable {
    /// - Throws: `PassMintError.companion` with the companion's own typed error.
    func render(_ pass: CompanionInput) throws(PassMintError) -> CompanionOutput
}

/// One issued pass, as a companion reads it.
public struct CompanionInput: Sendable {
    public let serialNumber: String
    /// The pass.json as issued.
    public let passJSON: JSONValue
    /// `passJSON` as the typed model the issuer built, so a companion need not parse it again; nil when the
    /// caller has none.
    public let pass: Pass?
    /// The pass's files other than pass.json, manifest and signature.
    public let files: [PassFile]
    /// The record's typed values.
    public let record: [String: String]

    public init(
        serialNumber: String, passJSON: JSONValue, pass: Pass? = nil, files: [PassFile], record: [String: String]
    ) {
        self.serialNumber = serialNumber
        self.passJSON = passJSON
        self.pass = pass
        self.files = files
        self.record = record
    }
}

/// What a companion made of one pass.
public struct CompanionOutput: Sendable {
    /// Members added to the pass's report line (e.g. `googleSaveUrl`).
    public var reportMembers: [String: JSONValue]
    /// Kept with the pass in the store, by name (e.g. `google`: the Google Wallet object).
    public var stored: [String: JSONValue]

    public init(reportMembers: [String: JSONValue] = [:], stored: [String: JSONValue] = [:]) {
        self.reportMembers = reportMembers
        self.stored = stored
    }
}

/// A companion's typed error, carried by `PassMintError.companion` so the batch reports it with its record.
public protocol CompanionFailure: Error, CustomStringConvertible {
    /// True when the record or the template is at fault (the batch goes on); false when the machine is (the batch
    /// stops after the window, as for a full disk).
    var isInvalidInput: Bool { get }
}
