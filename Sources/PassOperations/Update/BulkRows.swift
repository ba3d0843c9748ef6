import Foundation
import PassMint
import PassModel

/// One input row of a bulk update: the serial and the fields it sets, or why it cannot be used.
package struct BulkRow: Sendable, Equatable {
    /// Where the row starts in its input (1-based; a CSV's header is line 1).
    package var line: Int
    /// The pass the row changes ("" when the row names none).
    package var serialNumber: String
    /// Field name → new value. Empty CSV cells are left out: they keep the stored value.
    package var values: [String: String]
    /// Number field → amount to add (an `add:FIELD` column, a `{"add": N}` JSON value).
    package var amounts: [String: String]
    /// Why the row is unusable (unreadable CSV record, not a JSON object, …); the row then fails alone.
    package var problem: BulkRowProblem?
    /// The column or JSON key the problem is about, when one is.
    package var column: String?

    package init(
        line: Int, serialNumber: String, values: [String: String], amounts: [String: String] = [:],
        problem: BulkRowProblem? = nil, column: String? = nil
    ) {
        self.line = line
        self.serialNumber = serialNumber
        self.values = values
        self.amounts = amounts
        self.problem = problem
        self.column = column
    }
}

/// Rows of a bulk update, read one at a time so memory stays flat whatever the input's size.
package protocol BulkRowSource: AnyObject {
    /// The next row, nil at the end. A bad row comes back with its `problem`; only an unreadable input throws.
    func nextRow() throws(OperationError) -> BulkRow?
}

/// The column that names the pass in a bulk update's CSV or JSON Lines.
package let bulkSerialColumn = "serialNumber"

/// A CSV column `add:FIELD` holds amounts added to the number field FIELD (a field name never holds a colon).
package let bulkAmountPrefix = "add:"

/// CSV rows through `batch`'s reader (RFC 4180, separator and encoding detected, `CSVLimits`): a header with a
/// `serialNumber` column and the fields to change, and `add:FIELD` columns of amounts to add.
package final class CSVBulkRows: BulkRowSource {
    private let reader: CSVReader
    private let header: [String]
    private let serialIndex: Int
    private let name: String

    /// Opens `path` and checks the header.
    /// - Throws: `.pipeline(.csv(…))` naming the file when it cannot be opened; `.bulkHeader` when it is empty, or
    ///   its header has no `serialNumber` column, an empty name or a name twice.
    package init(path: String, format: CSVFormat = CSVFormat(), name: String? = nil) throws(OperationError) {
        let name = name ?? path
        self.name = name
        let reader = try OperationError.fromPipeline { () throws(PassMintError) in
            try CSVReader(path: path, format: format)
        }
        self.reader = reader
        guard let first = try OperationError.fromPipeline({ () throws(PassMintError) in try reader.nextRecord() })
        else {
            throw .bulkHeader(name: name, .empty)
        }
        let fields: [String]
        switch first.content {
        case .unreadable(let problem):
            throw .bulkHeader(name: name, .unreadable(problem))
        case .fields(let read):
            fields = read
        }
        header = fields.map { $0.trimmingCharacters(in: .whitespaces) }
        var seen = Set<String>()
        for (index, column) in header.enumerated() {
            guard !column.isEmpty else {
                throw .bulkHeader(name: name, .unnamedColumn(index + 1))
            }
            guard seen.insert(column).inserted else {
                throw .bulkHeader(name: name, .duplicateColumn(column))
            }
            if column.hasPrefix(bulkAmountPrefix), column.count == bulkAmountPrefix.count {
                throw .bulkHeader(name: name, .amountWithoutField(index + 1))
            }
        }
        guard let serialIndex = header.firstIndex(of: bulkSerialColumn) else {
            throw .bulkHeader(name: name, .noSerialColumn(delimiter: reader.delimiter, header: header))
        }
        guard header.count > 1 else {
            throw .bulkHeader(name: name, .onlySerialColumn)
        }
        self.serialIndex = serialIndex
    }

    package func nextRow() throws(OperationError) -> BulkRow? {
        guard let record = try OperationError.fromPipeline({ () throws(PassMintError) in try reader.nextRecord() })
        else {
            return nil
        }
        let fields: [String]
        switch record.content {
        case .unreadable(let problem):
            return BulkRow(line: record.line, serialNumber: "", values: [:], problem: .unreadable(problem))
        case .fields(let read):
            fields = read
        }
        guard fields.count == header.count else {
            return BulkRow(
                line: record.line, serialNumber: fields.count > serialIndex ? fields[serialIndex] : "", values: [:],
                problem: .fieldCount(fields.count, header: header.count))
        }
        var values: [String: String] = [:]
        var amounts: [String: String] = [:]
        for (column, value) in zip(header, fields) where column != bulkSerialColumn && !value.isEmpty {
            if column.hasPrefix(bulkAmountPrefix) {
                amounts[String(column.dropFirst(bulkAmountPrefix.count))] = value
            } else {
                values[column] = value
            }
        }
        return BulkRow(line: record.line, serialNumber: fields[serialIndex], values: values, amounts: amounts)
    }
}

/// JSON Lines rows: one JSON object per line, `serialNumber` and the fields to change (strings, numbers or
/// booleans, stored as their text; null keeps the stored value; `{"add": N}` adds N to a number field). Blank
/// lines are skipped.
package final class JSONLinesBulkRows: BulkRowSource {
    private let bytes: [UInt8]
    private let maxLineBytes: Int
    private let name: String
    private var position = 0
    private var line = 0

    /// - Parameter maxLineBytes: a longer line fails alone (the limit of one CSV record).
    package init(bytes: [UInt8], name: String, maxLineBytes: Int = CSVLimits().maxRecordBytes) {
        self.bytes = bytes
        self.name = name
        self.maxLineBytes = maxLineBytes
    }

    package func nextRow() throws(OperationError) -> BulkRow? {
        while position < bytes.count {
            line += 1
            let start = position
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            position = end + 1
            var slice = bytes[start..<end]
            if slice.last == 0x0D { slice = slice.dropLast() }
            if slice.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            guard slice.count <= maxLineBytes else {
                return failed(.lineTooLong(limit: maxLineBytes))
            }
            let document: JSONDocument
            do { document = try JSONReader.parse(Array(slice), file: name) } catch {
                return failed(.notJSON(error))
            }
            guard document.isStrict, case .object(let members) = document.value else {
                return failed(.notAnObject)
            }
            var values: [String: String] = [:]
            var amounts: [String: String] = [:]
            for (key, value) in members.sorted(by: { $0.key < $1.key }) {
                switch value {
                case .null: continue
                case .string(let text): values[key] = text
                case .integer(let number): values[key] = String(number)
                case .double(let number): values[key] = number.description
                case .bool(let flag): values[key] = flag ? "true" : "false"
                case .object(let members) where members.count == 1:
                    switch members["add"] {
                    case .integer(let number)?: amounts[key] = String(number)
                    case .double(let number)?: amounts[key] = number.description
                    case .string(let text)? where !text.isEmpty: amounts[key] = text
                    default:
                        return failed(.invalidAmount(key: key), column: key)
                    }
                case .array, .object:
                    return failed(.invalidValue(key: key), column: key)
                }
            }
            guard let serial = values.removeValue(forKey: bulkSerialColumn), !serial.isEmpty else {
                return failed(.noSerialKey, column: bulkSerialColumn)
            }
            return BulkRow(line: line, serialNumber: serial, values: values, amounts: amounts)
        }
        return nil
    }

    private func failed(_ problem: BulkRowProblem, column: String? = nil) -> BulkRow {
        BulkRow(line: line, serialNumber: "", values: [:], problem: problem, column: column)
    }
}
