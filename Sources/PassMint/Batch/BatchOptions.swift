import Foundation
import PassModel
import PassSigning

/// What `passmint batch` was asked to do.
public struct BatchOptions: Sendable {
    public var templateDirectory: String
    public var csvPath: String
    /// Separator, encoding and limits of the CSV (detected from the file where not given).
    public var csvFormat: CSVFormat
    /// Roots accepted in place of Apple's when `--resume` re-checks kept passes.
    public var trustRoots: TrustRoots = .none
    public var outputDirectory: String
    /// Parallel signers; defaults to the number of cores.
    public var jobs: Int
    /// JSON Lines report, one object per CSV record.
    public var reportPath: String?
    /// Also write `.pkpasses` bundles of at most 10 passes.
    public var bundle: Bool
    /// Skip records whose pass already exists and is valid.
    public var resume: Bool
    /// Base URL of the update service; each pass then gets a fresh authentication token.
    public var webServiceURL: String?
    /// Only records whose index (0-based, in file order) modulo `count` equals `index - 1`.
    public var shard: (index: Int, count: Int)?
    public var identity: IdentityOptions
    /// Derive the legacy `generic` fallback from `posterGeneric` for every pass (`IssueRequest.compatiblePass`).
    public var compatiblePass: Bool
    /// The folder records' relative image paths start at and must stay inside; nil for the CSV's folder.
    public var imagesDirectory: String?
    /// Where stored passes' distribution links start (`<linkBase>/p/<token>`); nil: at `webServiceURL`.
    public var linkBase: String?
    /// Scales the records' photos (PassPhotos' `PhotoScaler`); without one, a record naming an image fails.
    public var photos: any PhotoScaling = NoPhotoScaler()
    /// Store-only issuance: each record goes into the store with its token and distribution link, and no
    /// `.pkpass` file is written (`outputDirectory` is not used); `serve` renders and signs each pass on its first
    /// download. The first record of each template tier is rendered and signed as a check. Needs a store and a web
    /// service URL.
    public var storeOnly = false
    /// Issue serials already stored as new passes (new token, new link) instead of updating them: the phones that
    /// hold them can no longer update them.
    public var startOver = false
    /// A second rendering of every pass (a Google Wallet save link), added to its report line and kept with it.
    public var companion: (any PassCompanion)?

    public init(
        templateDirectory: String, csvPath: String, outputDirectory: String, jobs: Int, reportPath: String? = nil,
        bundle: Bool = false, resume: Bool = false, webServiceURL: String? = nil,
        shard: (index: Int, count: Int)? = nil,
        identity: IdentityOptions = IdentityOptions(), csvFormat: CSVFormat = CSVFormat(), compatiblePass: Bool = false,
        imagesDirectory: String? = nil
    ) {
        self.csvFormat = csvFormat
        self.compatiblePass = compatiblePass
        self.imagesDirectory = imagesDirectory
        self.templateDirectory = templateDirectory
        self.csvPath = csvPath
        self.outputDirectory = outputDirectory
        self.jobs = jobs
        self.reportPath = reportPath
        self.bundle = bundle
        self.resume = resume
        self.webServiceURL = webServiceURL
        self.shard = shard
        self.identity = identity
    }
}

/// Progress as the batch runs.
public struct BatchProgress: Sendable {
    public let done: Int
    public let failed: Int
    /// Records to process, when known (counted up front for progress bars).
    public let total: Int?
    public let elapsed: Double

    public init(done: Int, failed: Int, total: Int?, elapsed: Double) {
        self.done = done
        self.failed = failed
        self.total = total
        self.elapsed = elapsed
    }
}

/// Totals at the end.
public struct BatchSummary: Sendable {
    public let records: Int
    /// Passes made for serials not stored before (all of them without a store).
    public let issued: Int
    /// Stored passes replaced by a new version, keeping their token, devices and link.
    public var updated = 0
    /// Stored passes the records leave as they were: not stored again, nothing pushed.
    public var unchanged = 0
    public let resumed: Int
    public let failed: Int
    public let bundles: Int
    public let elapsed: Double
    /// Worth saying once: about the signing identity, the template, the CSV's columns.
    public let warnings: [BatchWarning]
    /// The batch was asked to stop (`shouldStop`) and ended after a window: records after `lastLine` were not
    /// attempted (`--resume` issues them).
    public let interrupted: Bool
    /// The CSV line of the last record attempted (0 when none was).
    public let lastLine: Int
    /// The first few failed records (line and why), for a summary on the terminal.
    public let firstFailures: [(line: Int, problem: BatchRecordProblem)]
    /// Records that failed because their bytes are not UTF-8: the file may be in a legacy encoding.
    public var invalidEncodingRecords: Int = 0
    /// The most `firstFailures` holds.
    public static let failuresShown = 5
}

extension BatchSummary: JobSummary {}

/// A pass just issued by a batch, for a store that the update service will serve it from.
public struct IssuedPassRecord: Sendable {
    public let serialNumber: String
    public let passTypeIdentifier: String
    public let templateDirectory: String
    public let record: [String: String]
    public let authenticationToken: String
    /// The `webServiceURL` written into the pass (the service must re-render it with the same one).
    public let webServiceURL: String?
    /// The pass's per-record images (file name → PNG bytes), kept so it can be re-rendered without the photos.
    public let images: [String: [UInt8]]
    /// The distribution link issued with the pass (its token is stored only as a hash); nil for none.
    public var link: PassLink?
    /// A new version of a pass already stored under this serial: the store keeps its token, registrations, link
    /// and install figures, and pushes its devices.
    public var replacesStored = false
    /// The pass is voided (a stored pass issued again keeps its voided state).
    public var voided = false
    /// What companions keep with the pass, by name (`google`: the Google Wallet class and object).
    public var companions: [String: JSONValue] = [:]

    public init(
        serialNumber: String, passTypeIdentifier: String, templateDirectory: String, record: [String: String],
        authenticationToken: String, webServiceURL: String?, images: [String: [UInt8]] = [:], link: PassLink? = nil
    ) {
        self.images = images
        self.link = link
        self.serialNumber = serialNumber
        self.passTypeIdentifier = passTypeIdentifier
        self.templateDirectory = templateDirectory
        self.record = record
        self.authenticationToken = authenticationToken
        self.webServiceURL = webServiceURL
    }
}

/// Where `--db` keeps issued passes (implemented by the service's stores).
public protocol IssuedPassSink: Sendable {
    /// Stores a group of passes in one transaction: new ones as new, `replacesStored` ones as new versions of
    /// the stored passes.
    func store(_ passes: [IssuedPassRecord]) throws
    /// The passes already stored under `serials`, by serial (unknown serials left out).
    func storedPasses(serials: [String]) throws -> [String: StoredIssue]
    /// Whether any stored pass was issued from the template at `templateDirectory`.
    func holdsPasses(templateDirectory: String) throws -> Bool
}

extension IssuedPassSink {
    /// Stores one pass issued by `generate` (a token-less pass gets a fresh token, so the service can still
    /// re-render it, but the pass itself carries no web service).
    /// - Parameters:
    ///   - linkBase: where its distribution link starts; nil: at `webServiceURL`.
    ///   - replacing: the pass is a new version of `replacing`, stored under its serial: its token, devices and
    ///     link are kept (no new link is made).
    /// - Returns: the pass's new distribution link, nil when it has neither a link base nor a web service URL, or
    ///   replaces a stored pass (which keeps its link).
    @discardableResult
    public func storeIssued(
        _ pass: IssuedPass, templateDirectory: String, token: String?, webServiceURL: String?,
        linkBase: String? = nil, replacing: StoredIssue? = nil, companions: [String: JSONValue] = [:]
    ) throws(PassMintError) -> PassLink? {
        let link =
            replacing != nil ? nil : (linkBase ?? webServiceURL).map { PassLink(base: $0, token: .generate()) }
        var record = IssuedPassRecord(
            serialNumber: pass.serialNumber, passTypeIdentifier: pass.passTypeIdentifier,
            templateDirectory: URL(fileURLWithPath: templateDirectory).standardizedFileURL.path, record: pass.record,
            authenticationToken: replacing?.authenticationToken ?? token ?? AuthenticationToken.generate(),
            webServiceURL: webServiceURL, images: pass.images, link: link)
        record.replacesStored = replacing != nil
        record.voided = replacing?.voided ?? false
        record.companions = companions
        do { try store([record]) } catch {
            throw .sink(.storingPass(serial: pass.serialNumber), underlying: error)
        }
        return link
    }
}
