/// Why a CSV record cannot be used, with the field, line, byte or limit at fault; worded by `description`.
public enum CSVRecordProblem: Sendable, Equatable, CustomStringConvertible {
    /// A quoted field runs to the end of the file: its closing quote is missing.
    case quoteNeverClosed(CSVFieldName, openedOnLine: Int)
    /// A quoted field grew past the field limit without its closing quote.
    case quoteNotClosedWithin(CSVFieldName, openedOnLine: Int, limit: Int)
    case fieldTooLong(CSVFieldName, limit: Int)
    case recordTooLong(limit: Int)
    case tooManyFields(limit: Int)
    /// A control character other than tab and line breaks, at a 0-based byte offset of the field.
    case controlCharacter(CSVFieldName, byte: UInt8, offset: Int)
    /// A byte that is not UTF-8, at a 0-based byte offset of the field: the file may be in another encoding.
    case invalidUTF8(CSVFieldName, byte: UInt8, offset: Int)

    /// The record's bytes are not UTF-8.
    public var isEncoding: Bool {
        if case .invalidUTF8 = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .quoteNeverClosed(let field, let line):
            return "\(field) opens a quote on line \(line) that is never closed, so the rest of the file was read as "
                + "its value; add the closing '\"' (a quote inside a value is written twice: \"\")"
        case .quoteNotClosedWithin(let field, let line, let limit):
            return "\(field) opens a quote on line \(line) that is not closed within \(limit) bytes; close the quote "
                + "(a quote inside a value is written twice: \"\")"
        case .fieldTooLong(let field, let limit):
            return "\(field) is longer than \(limit) bytes"
        case .recordTooLong(let limit):
            return "the record is longer than \(limit) bytes"
        case .tooManyFields(let limit):
            return "the record has more than \(limit) fields"
        case .controlCharacter(let field, let byte, let offset):
            return "\(field) holds the control character 0x\(Self.hex(byte)) at byte \(offset + 1); remove it "
                + "(values may hold tabs and line breaks, no other control characters)"
        case .invalidUTF8(let field, let byte, let offset):
            return "\(field) is not valid UTF-8 (byte 0x\(Self.hex(byte)) at byte \(offset + 1)); save the CSV as "
                + "UTF-8, or read it as windows-1252 or latin1 if a spreadsheet saved it in a Western European encoding"
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
    }
}

/// A field of a CSV record by position, with its header name once the header is known.
public struct CSVFieldName: Sendable, Equatable, CustomStringConvertible {
    /// 0-based.
    public let index: Int
    /// The header's name for the column, nil for the header itself or a column past it.
    public let name: String?

    /// "field 2 ('memberName')".
    public var description: String {
        "field \(index + 1)" + (name.map { " ('\($0)')" } ?? "")
    }
}
