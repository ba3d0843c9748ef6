import PassMint
import PassStore
import PassTemplates

/// Why one of the program's operations (update, bulk changes, resign, publish, links) failed. The pipeline's and
/// the store's own errors are carried as they are; the operations' own cases carry the input at fault as data,
/// worded once in `description`. Like `PassMintError`, each case has a category (the input is wrong, or the
/// machine is) and may name the input at fault, so the CLI can lead with its option; the service answers each
/// by its own status (a server fault is never a 4xx).
package indirect enum OperationError: Error, CustomStringConvertible {
    /// The input a failure is about (the pipeline's inputs).
    package typealias Input = PassMintError.Input
    /// Whether the input or the machine is at fault.
    package typealias Category = PassMintError.Category

    /// The pipeline failed: a template, an identity, a signature, a file (its own typed error).
    case pipeline(PassMintError)
    /// The store failed while the operation was at `step`; `underlying` is the store's own error.
    case store(StoreStep, underlying: any Error)
    /// The store cannot be opened (`StoreError.cannotOpenFile` or `.cannotOpenServer`).
    case unopenableStore(StoreError)
    /// A change the template refuses: this field, this reason.
    case change(ChangeRefusal)
    /// No stored pass has this serial number; `about` is the input that chose it (the serial, or the store).
    case passNotFound(serial: String, about: Input)
    /// Updating pass `serial` failed on a check after the change was accepted (a render, an image).
    case update(serial: String, OperationError)
    /// A pass has neither a link base nor a web service URL to start its link at.
    case noLinkBase(serial: String)
    /// A pass has no distribution link.
    case noLink(serial: String)
    /// A template name that cannot be stored; `path` is the folder it came from, when one did.
    case invalidTemplateName(path: String?, StoreError)
    /// No template in the store has this name, nor does a stored pass use one (`known` are the names there are).
    case unknownTemplateName(String, known: [String])
    /// Publishing the folder would break stored passes: `failed` of them do not render; the first few with why.
    case templateBreaksPasses(directory: String, failed: Int, failures: [PassFailure])
    /// A pass names a stored template version and no store was given to read it from.
    case templateNotStored(reference: String)
    /// A pass names a template version the store does not hold.
    case templateVersionMissing(reference: String)
    /// A resumable job was asked for chunks of no pass.
    case chunkSizeZero
    /// A re-signing was to be resumed, and none was started with this certificate.
    case nothingToResume(certificate: String, serial: String, store: String)
    /// A re-signing with this certificate was started before (finished or stopped after `position` passes).
    case resignStarted(serial: String, position: Int64, total: Int, store: String)
    /// A bulk update's CSV (`name`) has a header that cannot be used.
    case bulkHeader(name: String, BulkHeaderProblem)
    /// A bulk update's CSV file cannot be read; `underlying` is the file system's error.
    case csvUnreadable(path: String, underlying: any Error)
    /// A bulk update's request body cannot be put in a temporary file.
    case requestBodyUnwritable(path: String)

    /// One stored pass that a template cannot render, and why.
    package struct PassFailure: Sendable {
        package let serial: String
        package let error: OperationError

        package init(serial: String, error: OperationError) {
            self.serial = serial
            self.error = error
        }
    }

    package var category: Category {
        switch self {
        case .pipeline(let error): return error.category
        case .update(_, let error): return error.category
        case .store, .unopenableStore, .templateNotStored, .templateVersionMissing, .requestBodyUnwritable:
            return .environment
        case .change, .passNotFound, .noLinkBase, .noLink, .invalidTemplateName, .unknownTemplateName,
            .templateBreaksPasses, .chunkSizeZero, .nothingToResume, .resignStarted, .bulkHeader,
            .csvUnreadable:
            return .invalidInput
        }
    }

    /// The input the failure is about, when it is one option or field.
    package var about: Input? {
        switch self {
        case .pipeline(let error): return error.about
        case .store, .templateNotStored: return .store
        case .unopenableStore(let error):
            if case .cannotOpenFile = error { return .store }
            return nil
        case .passNotFound(_, let about): return about
        case .noLinkBase: return .linkBase
        case .invalidTemplateName(let path, _): return path == nil ? nil : .template
        case .templateBreaksPasses: return .template
        case .bulkHeader, .csvUnreadable: return .csv
        case .change, .update, .noLink, .unknownTemplateName, .templateVersionMissing, .chunkSizeZero,
            .nothingToResume, .resignStarted, .requestBodyUnwritable:
            return nil
        }
    }

    /// True for failures caused by the input rather than the environment.
    package var isInvalidInput: Bool { category == .invalidInput }

    /// The field or record key a refused change is about, when one is.
    package var field: String? {
        switch self {
        case .change(let refusal): return refusal.field
        case .update(_, let error): return error.field
        default: return nil
        }
    }

    /// The store's own error when the store failed, so a server can tell "unavailable" from "broken".
    package var storeError: StoreError? {
        switch self {
        case .store(_, let underlying): return underlying as? StoreError
        case .unopenableStore(let error): return error
        case .update(_, let error): return error.storeError
        default: return nil
        }
    }
}

extension OperationError {
    /// Runs a pipeline call, carrying its error as `.pipeline`.
    static func fromPipeline<T>(_ body: () throws(PassMintError) -> T) throws(OperationError) -> T {
        do { return try body() } catch { throw .pipeline(error) }
    }
}
