import PassMint
import PassModel
import PassTemplates

/// Why a row of a bulk update changed nothing; worded by `description` (the report's `error`, the job status's
/// `message`).
package enum BulkRowProblem: Sendable, CustomStringConvertible {
    /// The CSV record cannot be read.
    case unreadable(CSVRecordProblem)
    /// The CSV record has another number of fields than the header.
    case fieldCount(Int, header: Int)
    /// A JSON Lines line is longer than a CSV record may be.
    case lineTooLong(limit: Int)
    /// A JSON Lines line is not JSON.
    case notJSON(JSONSyntaxError)
    /// A JSON Lines line is not one JSON object.
    case notAnObject
    /// A JSON value that is neither a scalar nor `{"add": N}`.
    case invalidValue(key: String)
    /// `{"add": …}` without a number.
    case invalidAmount(key: String)
    /// A JSON Lines object without a `serialNumber` string.
    case noSerialKey
    /// A CSV row with an empty `serialNumber`.
    case noSerial
    /// No stored pass has the row's serial number.
    case unknownSerial(String)
    /// The pass's template refuses the change (`BulkRecordChecker.validate`'s error).
    case refused(OperationError)
    /// The changed pass cannot be rendered and signed (`BulkRecordChecker.renderCheck`'s error).
    case unrenderable(OperationError)

    package var description: String {
        switch self {
        case .unreadable(let problem):
            return problem.description
        case .fieldCount(let count, let header):
            return "the record has \(count) field(s) but the header has \(header); "
                + "quote values that contain the separator"
        case .lineTooLong(let limit):
            return "the line is longer than \(limit) bytes"
        case .notJSON(let error):
            return "not valid JSON: \(error.message); each line must be one JSON object"
        case .notAnObject:
            return #"each line must be one JSON object such as {"serialNumber": "…", "tier": "Gold"}"#
        case .invalidValue(let key):
            return #"the value of "\#(key)" must be a string, number, boolean or {"add": N}"#
        case .invalidAmount(let key):
            return #"the value of "\#(key)" must be a value or {"add": N} with a number N"#
        case .noSerialKey:
            return "the object has no \"\(bulkSerialColumn)\" string"
        case .noSerial:
            return "the row has no \(bulkSerialColumn); every row must name the pass it changes"
        case .unknownSerial(let serial):
            return "no stored pass has serial number \(serial); check the serial and the store"
        case .refused(let error):
            return Self.words(error)
        case .unrenderable(let error):
            return "the changed pass cannot be rendered: \(error)"
        }
    }

    /// A refusal as a report line says it: "+10" shows both ways of writing it in a row.
    private static func words(_ error: OperationError) -> String {
        if case .change(.value(.signedValue(let field, let value, _))) = error {
            let number = String(value.drop { $0 == " " || $0 == "+" })
            return "\(field) \"\(value)\" would set \(field) to \(number), not add \(number) to it; give \(number) "
                + "under \(field) to set it, or \(number) under \(bulkAmountPrefix)\(field) (CSV) or "
                + #"{"add": \#(number)} (JSON Lines) to add it"#
        }
        return error.description
    }
}

extension BulkRowProblem: Equatable {
    /// Problems are equal by kind and by their data; a refusal or a failed render by kind and the field it names.
    package static func == (lhs: BulkRowProblem, rhs: BulkRowProblem) -> Bool {
        switch (lhs, rhs) {
        case (.unreadable(let a), .unreadable(let b)): return a == b
        case (.fieldCount(let a, let x), .fieldCount(let b, let y)): return a == b && x == y
        case (.lineTooLong(let a), .lineTooLong(let b)): return a == b
        case (.notJSON(let a), .notJSON(let b)): return a == b
        case (.notAnObject, .notAnObject), (.noSerialKey, .noSerialKey), (.noSerial, .noSerial): return true
        case (.invalidValue(let a), .invalidValue(let b)), (.invalidAmount(let a), .invalidAmount(let b)):
            return a == b
        case (.unknownSerial(let a), .unknownSerial(let b)): return a == b
        case (.refused(let a), .refused(let b)), (.unrenderable(let a), .unrenderable(let b)): return a.field == b.field
        default: return false
        }
    }
}
