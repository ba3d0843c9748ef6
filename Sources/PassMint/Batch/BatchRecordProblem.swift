import PassModel

/// Why a batch made no pass for a record; worded by `description` (the report's `error`).
public enum BatchRecordProblem: Sendable, Equatable, CustomStringConvertible {
    /// The CSV record cannot be read.
    case unreadable(CSVRecordProblem)
    /// An earlier record has the same `serialNumber`: this one's pass would replace that one's file and row.
    case duplicateSerial(String, firstLine: Int)
    /// The record has another number of fields than the header.
    case fieldCount(Int, header: Int)
    /// The serial number breaks the identifier grammar.
    case invalidSerial(String)
    /// The store holds the serial as a pass of another type than the certificate signs.
    case storedAsOtherType(serial: String, stored: String, signs: String)
    /// The pipeline refused the record (template values, a photo, Wallet's rules) or the machine failed while
    /// issuing it (`isEnvironment`).
    case notIssued(PassMintError)

    /// The machine failed, not the record (a full disk, a folder that is not writable): every later record would
    /// fail the same way, so the batch stops after the record's window.
    public var isEnvironment: Bool {
        if case .notIssued(let error) = self { return !error.isInvalidInput }
        return false
    }

    /// The record's bytes are not UTF-8 (the CSV may be in another encoding).
    public var isEncoding: Bool {
        if case .unreadable(let problem) = self { return problem.isEncoding }
        return false
    }

    public var description: String {
        switch self {
        case .unreadable(let problem):
            return problem.description
        case .duplicateSerial(let serial, let first):
            return "serialNumber '\(serial)' is already used by the record on line \(first); every pass needs its own "
                + "serial number"
        case .fieldCount(let count, let header):
            return "has \(count) fields but the header has \(header); quote values that contain commas"
        case .invalidSerial(let serial):
            return "serialNumber '\(serial)' \(IdentifierGrammar.serialNumber.rule) (it names the file and the pass's "
                + "URL)"
        case .storedAsOtherType(let serial, let stored, let signs):
            return "serialNumber '\(serial)' is stored as a pass of type \(stored), and this certificate signs "
                + "\(signs); give the record another serial number"
        case .notIssued(let error):
            return error.description
        }
    }
}
