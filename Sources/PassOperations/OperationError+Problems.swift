import PassMint
import PassStore
import PassTemplates

extension OperationError {
    /// What an operation asked of the store when the store failed.
    package enum StoreStep: Sendable, Equatable {
        /// Reading or changing the distribution link of a pass.
        case link(serial: String)
        /// Reading the stored pass `serial`.
        case readingPass(serial: String)
        /// Storing the update of pass `serial`.
        case storingUpdate(serial: String)
        /// Reading the progress a bulk update committed before.
        case readingBulkProgress
        /// Storing a bulk update's changes up to an input line.
        case storingChanges(upToLine: Int)
        /// Reading a stored template version.
        case readingTemplate(reference: String)
        /// Storing a template version for the passes issued from it.
        case storingTemplate(reference: String)
        /// Reading the stored templates and their use.
        case readingStoredTemplates
        /// Reading what happened to pass `serial` (its versions and events, for `trace`).
        case readingTrace(serial: String)
        /// Reading what publishing a template changes.
        case readingPublishState
        /// Reading the stored passes a template is checked against.
        case readingPassesToCheck
        /// Moving passes to a published template version (`moved` so far).
        case publishing(reference: String, moved: Int)
        /// Counting the stored passes per pass type.
        case readingPassTypes(store: StoreLocation)
        /// Reading the progress of a re-signing.
        case readingResignProgress(store: StoreLocation)
        /// Reading the passes to re-sign.
        case readingPassesToResign(store: StoreLocation)
        /// Re-signing a chunk after `done` of `total` passes.
        case resigning(done: Int, total: Int, store: StoreLocation)
    }

    /// Why a template refuses a change: which field or key, for what reason.
    package enum ChangeRefusal: Sendable, Equatable {
        /// The key is the pass's identity (`serialNumber`, an `@` key) and never changes.
        case reservedKey(String)
        /// The key names an image file, which only a local update may read.
        case imageOverHTTP(String)
        /// The key is no field of the template (`template` is its stored name; `fields` the ones it has).
        case unknownField(String, template: String, fields: [String])
        /// The template refuses the value or amount (a type, an enum value, a bound); the error names the field.
        case value(TemplateError)

        /// The field or key refused.
        package var field: String? {
            switch self {
            case .reservedKey(let key), .imageOverHTTP(let key), .unknownField(let key, _, _): return key
            case .value(let error):
                switch error {
                case .missingValue(let field, _), .invalidValue(let field, _, _, _), .signedValue(let field, _, _),
                    .outOfRange(let field, _, _, _, _), .notANumberField(let field, _, _):
                    return field
                case .controlCharacter(let key, _, _), .unknownImageSlot(let key, _),
                    .unknownRecordKey(let key, _, _, _):
                    return key
                default: return nil
                }
            }
        }
    }

    /// What is wrong with a bulk update CSV's header (line 1).
    package enum BulkHeaderProblem: Sendable {
        /// The file holds no header.
        case empty
        /// The header record cannot be read.
        case unreadable(CSVRecordProblem)
        /// The column at this 1-based index has no name.
        case unnamedColumn(Int)
        /// A column name appears twice.
        case duplicateColumn(String)
        /// The column at this 1-based index is `add:` with no field.
        case amountWithoutField(Int)
        /// No `serialNumber` column (read with `delimiter`; `header` as read).
        case noSerialColumn(delimiter: CSVDelimiter, header: [String])
        /// Only a `serialNumber` column.
        case onlySerialColumn
    }
}
