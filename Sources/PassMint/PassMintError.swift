import PassArchive
import PassModel
import PassSigning
import PassTemplates

/// Why the pipeline could not issue, verify or inspect a pass. The lower targets' own errors are carried as they
/// are (typed, with their file and path); PassMint's own cases say what is wrong and which input it is about, and
/// the CLI words that input as the option that sets it. Each case has a category: invalid input (CLI exit 1) or an
/// environment problem (exit 3).
public enum PassMintError: Error, CustomStringConvertible {
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
    /// The input is invalid (CLI exit 1); `about` names the input when one option or field is at fault.
    case invalidInput(String, about: Input? = nil)
    /// Something in the environment is missing or broken: certificate files, output folder (CLI exit 3).
    case environment(String, about: Input? = nil)
    /// A companion rendering of the pass (a Google Wallet save link) failed.
    case companion(any CompanionFailure)
    /// A batch stopped at `line` for a problem of the machine (a full disk, a store that cannot be written); the
    /// passes and report so far are kept, and resuming the batch once the cause is fixed issues the rest.
    case batchStopped(line: Int, message: String)

    public var category: Category {
        switch self {
        case .template, .invalidPass, .invalidInput: return .invalidInput
        case .environment, .batchStopped: return .environment
        case .companion(let failure): return failure.isInvalidInput ? .invalidInput : .environment
        // An identity that cannot be used is the machine's problem, not the record's.
        case .signing: return .environment
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
        case .invalidInput(_, let about), .environment(_, let about): return about
        case .template: return nil
        case .signing(let error): return Self.input(of: error)
        case .archive, .photo, .invalidPass, .batchStopped, .companion: return nil
        }
    }

    public var description: String {
        switch self {
        case .template(let error): return error.description
        case .signing(let error): return error.description
        case .archive(let error): return error.description
        case .photo(let error): return error.description
        case .companion(let failure): return failure.description
        case .invalidInput(let message, _), .environment(let message, _), .batchStopped(_, let message): return message
        case .invalidPass(let file, let problems):
            let lines = problems.map {
                "  \($0.severity.rawValue) \($0.code) at \($0.path.isEmpty ? file : $0.path): \($0.message)"
            }
            return "\(file) is not a valid pass; fix the template or the values:\n" + lines.joined(separator: "\n")
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

extension PassMintError: Equatable {
    /// Errors are equal by kind, as tests match them: the wrapped error's own equality, or the same case and input
    /// for PassMint's own cases (their wording may change).
    public static func == (lhs: PassMintError, rhs: PassMintError) -> Bool {
        switch (lhs, rhs) {
        case (.template(let a), .template(let b)): return a == b
        case (.signing(let a), .signing(let b)): return a == b
        case (.archive(let a), .archive(let b)): return a == b
        case (.photo(let a), .photo(let b)): return a == b
        case (.invalidPass(let a, _), .invalidPass(let b, _)): return a == b
        case (.batchStopped(let a, _), .batchStopped(let b, _)): return a == b
        case (.companion(let a), .companion(let b)): return type(of: a) == type(of: b) && a.description == b.description
        case (.invalidInput(_, let a), .invalidInput(_, let b)), (.environment(_, let a), .environment(_, let b)):
            return a == b
        default: return false
        }
    }
}
