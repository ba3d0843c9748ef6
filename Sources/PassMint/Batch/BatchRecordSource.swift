/// A record a batch issues: a CSV record, or one refused before it is issued.
enum BatchInput: Sendable {
    case record(CSVRecord)
    case refused(line: Int, BatchRecordProblem)
}

/// The records a batch issues, a window at a time, in CSV order: only this shard's records, and a record whose
/// `serialNumber` an earlier record already used refused.
struct BatchRecordSource {
    private let reader: CSVReader
    private let shard: (index: Int, count: Int)?
    private let columns: Columns
    private var serials: SerialNumbersSeen
    /// Index of the next record in the file (0-based, header excluded), for the shard rule.
    private var index = 0
    /// True once the CSV has no more records.
    private(set) var exhausted = false

    init(reader: CSVReader, shard: (index: Int, count: Int)?, columns: Columns) {
        self.reader = reader
        self.shard = shard
        self.columns = columns
        serials = SerialNumbersSeen(column: columns.names.firstIndex(of: "serialNumber"))
    }

    /// Up to `size` records; empty at the end of the file.
    /// - Throws: only what `CSVReader.nextRecord` throws (it reports bad records, it does not throw for them).
    mutating func nextWindow(_ size: Int) throws(PassMintError) -> [BatchInput] {
        var window: [BatchInput] = []
        window.reserveCapacity(min(size, 1024))
        while window.count < size {
            guard let record = try reader.nextRecord() else {
                exhausted = true
                break
            }
            defer { index += 1 }
            if let shard, index % shard.count != shard.index - 1 { continue }
            if let duplicate = serials.duplicate(of: record, columns: columns) {
                window.append(.refused(line: record.line, duplicate))
            } else {
                window.append(.record(record))
            }
        }
        return window
    }
}

/// The `serialNumber` values a batch has met, to refuse a second record with the same one (its pass would replace
/// the first's file and row). Kept as 64-bit hashes with the first line: about 20 bytes per record.
struct SerialNumbersSeen {
    let column: Int?
    private var firstLine: [Int: Int] = [:]

    init(column: Int?) {
        self.column = column
    }

    /// The problem of `record` when an earlier record has its serial number; nil otherwise (or when the record
    /// has no serial of its own: generated serials are unique).
    mutating func duplicate(of record: CSVRecord, columns: Columns) -> BatchRecordProblem? {
        guard let column, let fields = record.fields, fields.count == columns.names.count, !fields[column].isEmpty
        else { return nil }
        let serial = fields[column]
        if let first = firstLine[serial.hashValue] {
            return .duplicateSerial(serial, firstLine: first)
        }
        firstLine[serial.hashValue] = record.line
        return nil
    }
}
