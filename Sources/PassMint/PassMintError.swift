import PassArchive
import PassModel
import PassSigning
import PassTemplates

/// Why the pipeline could not issue, verify or inspect a pass. The lower targets' own errors are carried as they
/// are (typed, with their file and path); PassMint's own cases carry the input at fault and what is wrong with it
/// as data, worded once in `description`. `about` names the input, so the CLI can lead with the option that sets
/// it. Each case has a category: invalid input (CLI exit 1) or an environment problem (exit 3).
public indirect enum PassMintError: Error, CustomStringConvertible {
    /// The input a message is about, so a front end can name the option or field that sets it.
    public enum Input: String, Sendable, CaseIterable {
        case template, csv, data, out, report, store, webServiceURL, serial, images, trustRoot, linkBase, linkExpiry
        case certificate, key, wwdr, pkcs12, password
    }

    /// What kind of failure: the input is wrong, or the machine is.
    public enum Category: Sendable, Equatable {
        case invalidInput, environment
    }

    /// A template could not be loaded, a record not typed or a pass not rendered.
    case template(TemplateError)
    /// A signing identity could not be loaded or used.
    case signing(SigningError)
    /// An archive could not be read or written.
    case archive(ArchiveError)
    /// A per-record image could not be used.
    case photo(PhotoError)
    /// The rendered pass breaks Wallet's rules; each problem carries its JSON path.
    case invalidPass(file: String, problems: [Problem])
    /// No file or folder at the template path.
    case templateNotFound(path: String)
    /// A zipped template that cannot be used.
    case templateArchive(path: String, TemplateArchiveProblem)
    /// The rendered pass.json `file` has a value the pass model cannot hold.
    case renderedPass(file: String, PassModelError)
    /// The rendered pass.json `file` has a serial number outside the serial grammar.
    case invalidSerialNumber(file: String, serial: String)
    /// A record file (`generate --data`) that cannot be used.
    case recordFile(path: String, RecordFileProblem)
    /// A CSV file that cannot be used as a batch's input.
    case csv(path: String, CSVProblem)
    /// A link base that is not an absolute http(s) URL without query.
    case invalidLinkBase(String)
    /// A link expiry that is not a time (`form: .time`) or a duration (`form: .duration`).
    case invalidLinkExpiry(String, form: LinkExpiryForm)
    /// The options naming the signing identity do not fit together, or one is missing.
    case identity(IdentityProblem)
    /// A new signing identity is refused for the passes it is to sign; `about` is the input naming its
    /// certificate.
    case renewalRefused(IdentityRenewalCheck.Refusal, about: Input)
    /// A file the options name does not exist or cannot be read.
    case unreadableFile(path: String, about: Input?)
    /// A trust root file that cannot be used.
    case trustRoot(path: String, TrustRootProblem)
    /// A certificate file given to inspect cannot be read or parsed.
    case inspection(SigningError)
    /// An output file cannot be written.
    case output(path: String, OutputProblem)
    /// A `.pkpasses` bundle cannot be made or written.
    case bundle(path: String, ArchiveError)
    /// The output folder cannot be created; `underlying` is the file system's error.
    case outputFolder(path: String, underlying: any Error)
    /// A JSON Lines report cannot be written.
    case report(path: String, ReportProblem)
    /// Issued passes get a web service URL only when they are stored (the service finds them there).
    case webServiceURLWithoutStore
    /// Store-only issuance (no output folder) needs a store and a web service URL: `serve` renders each pass on its
    /// first download from the stored record, and the pass must name the service.
    case storeOnlyWithoutService
    /// Store-only issuance writes no pass files, so it makes no bundles either.
    case storeOnlyBundle
    /// The store the issued passes go to failed at `step`; `underlying` is the store's own error.
    case sink(SinkStep, underlying: any Error)
    /// A batch stopped for a problem of the machine (a full disk, a store that cannot be written); the passes and
    /// report so far are kept, and resuming the batch once the cause is fixed issues the rest.
    case batchStopped(BatchStop)
    /// A companion rendering of the pass (a Google Wallet save link) failed.
    case companion(any CompanionFailure)

    public var category: Category {
        switch self {
        case .template, .invalidPass, .templateNotFound, .templateArchive, .renderedPass, .invalidSerialNumber,
            .recordFile, .csv, .invalidLinkBase, .invalidLinkExpiry, .webServiceURLWithoutStore, .renewalRefused,
            .storeOnlyWithoutService, .storeOnlyBundle:
            return .invalidInput
        case .identity, .unreadableFile, .trustRoot, .output, .bundle, .outputFolder, .report, .sink, .batchStopped:
            return .environment
        case .companion(let failure): return failure.isInvalidInput ? .invalidInput : .environment
        // An identity that cannot be used is the machine's problem, not the record's.
        case .signing: return .environment
        case .inspection(let error):
            if case .fileUnreadable = error { return .environment }
            return .invalidInput
        case .archive(let error):
            // Writing failed (a full disk, no memory): the machine's problem. Reading failed: the input's.
            switch error {
            case .fileSystem, .writeFailed: return .environment
            default: return .invalidInput
            }
        case .photo(let error):
            switch error {
            case .libraryUnavailable, .scalerUnavailable: return .environment
            default: return .invalidInput
            }
        }
    }

    /// The input the failure is about, when it is one option or field.
    public var about: Input? {
        switch self {
        case .templateNotFound, .templateArchive: return .template
        case .recordFile: return .data
        case .csv(_, let problem): return problem.about
        case .invalidLinkBase: return .linkBase
        case .invalidLinkExpiry: return .linkExpiry
        case .identity(let problem): return problem.about
        case .unreadableFile(_, let about): return about
        case .renewalRefused(_, let about): return about
        case .trustRoot: return .trustRoot
        case .output, .bundle, .outputFolder, .storeOnlyWithoutService, .storeOnlyBundle: return .out
        case .report: return .report
        case .webServiceURLWithoutStore: return .webServiceURL
        case .sink: return .store
        case .signing(let error): return Self.input(of: error)
        case .template, .archive, .photo, .invalidPass, .renderedPass, .invalidSerialNumber, .inspection,
            .batchStopped, .companion:
            return nil
        }
    }

    /// True for failures caused by the input rather than the environment.
    public var isInvalidInput: Bool { category == .invalidInput }

    /// The input a signing error is about when that is unambiguous (its message names the file either way).
    private static func input(of error: SigningError) -> Input? {
        switch error {
        case .keyPasswordRequired, .wrongPassword: return .password
        case .missingWWDR: return .wwdr
        default: return nil
        }
    }
}
