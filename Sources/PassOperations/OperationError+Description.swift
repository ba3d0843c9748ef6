import PassMint
import PassStore

extension OperationError {
    /// What failed, on which input, and what to do next.
    package var description: String {
        switch self {
        case .pipeline(let error): return error.description
        case .store(let step, let underlying): return Self.words(step, underlying)
        case .unopenableStore(let error): return error.description
        case .change(let refusal): return Self.words(refusal)
        case .passNotFound(let serial, let about):
            return "no stored pass has serial number \(serial)"
                + (about == .serial ? "" : "; check the serial and the store")
        case .update(let serial, let error): return "update \(serial): \(error)"
        case .noLinkBase(let serial):
            return "pass \(serial) has no web service URL, so its link has no place to start; give a link base"
        case .noLink(let serial): return "pass \(serial) has no distribution link; reissue one"
        case .invalidTemplateName(let path?, let error): return "template \(path): \(error)"
        case .invalidTemplateName(nil, let error): return error.description
        case .unknownTemplateName(let name, let known):
            return "no template is named '\(name)' in the store and no stored pass uses one; names: "
                + (known.isEmpty ? "none yet (issue passes into the store first)" : known.joined(separator: ", "))
        case .templateBreaksPasses(let directory, let failed, let failures):
            return "template \(directory) cannot render \(failed) stored pass(es); nothing was changed: "
                + failures.map { "pass \($0.serial): \($0.error)" }.joined(separator: "; ")
                + (failed > failures.count ? "; …" : "") + "; fix the template (or the passes) and publish again"
        case .templateNotStored(let reference):
            return "template \(reference) is a stored template version, and no store was given to read it from"
        case .templateVersionMissing(let reference):
            return StoreError.templateVersionMissing(reference: reference).description
        case .chunkSizeZero: return "the chunk size must be at least 1"
        case .nothingToResume(let certificate, let serial, let store):
            return "nothing to resume: no re-signing with \(certificate) (serial \(serial)) was started in \(store); "
                + "run it without resuming"
        case .resignStarted(let serial, let position, let total, let store):
            let state = position >= Int64(total) ? "already re-signed all" : "was interrupted after"
            return "a re-signing with this certificate (serial \(serial)) \(state) \(position) passes in \(store); "
                + "resume it to finish, or nothing is left to do"
        case .bulkHeader(let name, let problem): return Self.words(problem, name: name)
        case .csvUnreadable(let path, let underlying):
            return "\(path): reading the CSV failed: \(underlying.localizedDescription)"
        case .requestBodyUnwritable(let path): return "cannot write the request body to \(path)"
        }
    }

    private static func words(_ step: StoreStep, _ error: any Error) -> String {
        switch step {
        case .link(let serial): return "the link of pass \(serial): the store failed: \(error)"
        case .readingPass(let serial): return "reading pass \(serial): \(error)"
        case .storingUpdate(let serial): return "storing the update of \(serial): \(error)"
        case .readingBulkProgress: return "reading the progress of the job: \(error)"
        case .storingChanges(let line): return "storing the changes up to line \(line): \(error)"
        case .readingTemplate(let reference): return "reading template \(reference): \(error)"
        case .storingTemplate(let reference): return "storing template \(reference): \(error)"
        case .readingStoredTemplates: return "reading the stored templates: \(error)"
        case .readingTrace(let serial): return "reading what happened to pass \(serial): \(error)"
        case .readingPublishState: return "reading the store: \(error)"
        case .readingPassesToCheck: return "reading the passes to check: \(error)"
        case .publishing(let reference, let moved):
            return "publishing \(reference): \(error) (\(moved) passes moved so far)"
        case .readingPassTypes(let store): return "reading the store \(store): \(error)"
        case .readingResignProgress(let store): return "reading the job's progress in \(store): \(error)"
        case .readingPassesToResign(let store): return "reading passes from \(store): \(error)"
        case .resigning(let done, let total, let store):
            return "re-signing passes after \(done) of \(total) in \(store): \(error); the passes before are done "
                + "— resume once the cause is fixed"
        }
    }

    private static func words(_ refusal: ChangeRefusal) -> String {
        switch refusal {
        case .reservedKey(let key):
            return "'\(key)' cannot be changed; serial number, pass type and token stay fixed"
        case .imageOverHTTP(let key):
            return "'\(key)' names an image file; images can only be changed by a local update on the service's "
                + "machine, not over HTTP"
        case .unknownField(let key, let template, let fields):
            return "'\(key)' is not a field of template \(template); fields: \(fields.sorted().joined(separator: ", "))"
        case .value(let error):
            return error.description
        }
    }

    private static func words(_ problem: BulkHeaderProblem, name: String) -> String {
        switch problem {
        case .empty:
            return "\(name): the CSV is empty; line 1 must name serialNumber and the fields to change"
        case .unreadable(let problem):
            return "\(name):1: the header cannot be read: \(problem)"
        case .unnamedColumn(let index):
            return "\(name):1: column \(index) of the header has no name; name every column"
        case .duplicateColumn(let column):
            return "\(name):1: column '\(column)' appears twice in the header; remove one"
        case .amountWithoutField(let index):
            return "\(name):1: column \(index) is '\(bulkAmountPrefix)' with no field; name the number field to add "
                + "to, e.g. \(bulkAmountPrefix)points"
        case .noSerialColumn(let delimiter, let header):
            return "\(name):1: the header has no \(bulkSerialColumn) column (read with the separator "
                + "\(delimiter.shown): \(header.prefix(5).joined(separator: ", "))); every row must name the pass "
                + "it changes"
        case .onlySerialColumn:
            return "\(name):1: the header names only \(bulkSerialColumn); add the columns of the fields to change"
        }
    }
}

extension OperationError: Equatable {
    /// Equal by kind: the same case about the same pass, template or input (never the wording, nor an underlying
    /// error that has no equality).
    package static func == (lhs: OperationError, rhs: OperationError) -> Bool {
        switch (lhs, rhs) {
        case (.pipeline(let a), .pipeline(let b)): return a == b
        case (.store(let a, _), .store(let b, _)): return a == b
        case (.unopenableStore(let a), .unopenableStore(let b)): return a == b
        case (.change(let a), .change(let b)): return a == b
        case (.passNotFound(let a, _), .passNotFound(let b, _)): return a == b
        case (.update(let a, let x), .update(let b, let y)): return a == b && x == y
        case (.noLinkBase(let a), .noLinkBase(let b)), (.noLink(let a), .noLink(let b)): return a == b
        case (.invalidTemplateName(_, let a), .invalidTemplateName(_, let b)): return a == b
        case (.unknownTemplateName(let a, _), .unknownTemplateName(let b, _)): return a == b
        case (.templateBreaksPasses(let a, let x, _), .templateBreaksPasses(let b, let y, _)): return a == b && x == y
        case (.templateNotStored(let a), .templateNotStored(let b)): return a == b
        case (.templateVersionMissing(let a), .templateVersionMissing(let b)): return a == b
        case (.chunkSizeZero, .chunkSizeZero): return true
        case (.nothingToResume(_, let a, _), .nothingToResume(_, let b, _)): return a == b
        case (.resignStarted(let a, let x, _, _), .resignStarted(let b, let y, _, _)): return a == b && x == y
        case (.bulkHeader(let a, let x), .bulkHeader(let b, let y)): return a == b && x.kind == y.kind
        case (.csvUnreadable(let a, _), .csvUnreadable(let b, _)): return a == b
        case (.requestBodyUnwritable(let a), .requestBodyUnwritable(let b)): return a == b
        default: return false
        }
    }
}

extension OperationError.BulkHeaderProblem {
    /// The problem without its data, for equality by kind.
    var kind: Int {
        switch self {
        case .empty: return 0
        case .unreadable: return 1
        case .unnamedColumn: return 2
        case .duplicateColumn: return 3
        case .amountWithoutField: return 4
        case .noSerialColumn: return 5
        case .onlySerialColumn: return 6
        }
    }
}
