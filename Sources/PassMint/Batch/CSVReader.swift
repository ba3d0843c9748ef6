import Foundation
import PassModel

/// One CSV record: its fields, or why it could not be read, and the line it starts on.
public struct CSVRecord: Sendable {
    /// What the record holds.
    public enum Content: Sendable {
        case fields([String])
        /// The record is unusable (invalid text, a control character, a field over the limits, a quote never
        /// closed).
        case unreadable(CSVRecordProblem)
    }

    /// First physical line of the record (1-based; the header is line 1).
    public let line: Int
    public let content: Content

    init(line: Int, _ content: Content) {
        self.line = line
        self.content = content
    }

    /// The fields, when the record could be read.
    public var fields: [String]? {
        if case .fields(let fields) = content { return fields }
        return nil
    }

    /// Why the record is unusable, nil when it could be read.
    public var problem: CSVRecordProblem? {
        if case .unreadable(let problem) = content { return problem }
        return nil
    }
}

/// Streams RFC 4180 CSV from a file: quoted fields with separators, doubled quotes and line breaks; CRLF, LF or
/// CR; UTF-8 with or without a BOM, UTF-16 with a BOM, or a single-byte encoding when told (see `CSVFormat`).
/// The separator is detected from the header unless given. Memory stays flat: the file is read in 64 KB chunks
/// and no record may grow past `CSVLimits`.
///
/// A bad record never stops the reader: it comes back with its `problem` and the next record follows (an unclosed
/// quote runs to the end of the file, as RFC 4180 reads it, and is reported by the line it opened on).
public final class CSVReader {
    private let handle: FileHandle
    private let source: CSVByteSource
    private let path: String
    private let limits: CSVLimits
    /// The field separator in use (given, or detected from the header line).
    public let delimiter: CSVDelimiter
    /// The encoding in use (given, else from the byte order mark, else UTF-8).
    public var encoding: CSVEncoding { source.encoding }
    private var buffer: [UInt8] = []
    private var position = 0
    private var eof = false
    private var line = 1
    /// The header's names, for messages about later records.
    private var header: [String]?

    /// Opens `path` for reading.
    /// - Throws: `PassMintError.csv` when the file cannot be opened.
    public init(path: String, format: CSVFormat = CSVFormat()) throws(PassMintError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .csv(path: path, .cannotOpen)
        }
        self.handle = handle
        self.path = path
        limits = format.limits
        source = CSVByteSource(handle: handle, encoding: format.encoding)
        if let given = format.delimiter {
            delimiter = given
        } else {
            buffer = source.next() ?? []
            while buffer.isEmpty, let more = source.next() { buffer = more }
            delimiter = Self.detectDelimiter(buffer)
        }
    }

    deinit { try? handle.close() }

    /// The separator that occurs most often outside quotes in the first line (comma on a tie or when none does).
    static func detectDelimiter(_ bytes: [UInt8]) -> CSVDelimiter {
        var counts: [CSVDelimiter: Int] = [:]
        var inQuotes = false
        for byte in bytes {
            if byte == UInt8(ascii: "\"") { inQuotes.toggle(); continue }
            if inQuotes { continue }
            if byte == 0x0A || byte == 0x0D { break }
            if let d = CSVDelimiter(rawValue: byte), d != .pipe { counts[d, default: 0] += 1 }
        }
        let best = [CSVDelimiter.comma, .semicolon, .tab].max { (counts[$0] ?? 0) < (counts[$1] ?? 0) }!
        return (counts[best] ?? 0) > (counts[.comma] ?? 0) ? best : .comma
    }

    private func fill() -> Bool {
        while position >= buffer.count {
            if eof { return false }
            guard let chunk = source.next() else {
                eof = true
                return false
            }
            buffer = chunk
            position = 0
        }
        return true
    }

    private func peek() -> UInt8? {
        fill() ? buffer[position] : nil
    }

    private func next() -> UInt8? {
        guard fill() else { return nil }
        defer { position += 1 }
        return buffer[position]
    }

    /// The next record, or nil at the end of the file. Blank lines are skipped.
    public func nextRecord() throws(PassMintError) -> CSVRecord? {
        while true {
            guard let first = peek() else { return nil }
            if first == 0x0A { _ = next(); line += 1; continue }
            if first == 0x0D {
                _ = next()
                if peek() == 0x0A { _ = next() }
                line += 1
                continue
            }
            break
        }
        let startLine = line
        let separator = delimiter.rawValue
        var rawFields: [[UInt8]] = []
        var field: [UInt8] = []
        var recordBytes = 0
        var inQuotes = false
        var quotedField = false
        var quoteLine = 0
        var overflow: CSVRecordProblem?
        func append(_ byte: UInt8) {
            guard overflow == nil else { return }
            if field.count >= limits.maxFieldBytes {
                overflow =
                    quotedField && inQuotes
                    ? .quoteNotClosedWithin(name(rawFields.count), openedOnLine: quoteLine, limit: limits.maxFieldBytes)
                    : .fieldTooLong(name(rawFields.count), limit: limits.maxFieldBytes)
                return
            }
            recordBytes += 1
            if recordBytes > limits.maxRecordBytes {
                overflow = .recordTooLong(limit: limits.maxRecordBytes)
                return
            }
            field.append(byte)
        }
        func endField() {
            if overflow == nil, rawFields.count >= limits.maxFields {
                overflow = .tooManyFields(limit: limits.maxFields)
            }
            if overflow == nil { rawFields.append(field) }
            field = []
            quotedField = false
        }
        loop: while true {
            guard let byte = next() else {
                if inQuotes {
                    return CSVRecord(
                        line: startLine,
                        .unreadable(overflow ?? .quoteNeverClosed(name(rawFields.count), openedOnLine: quoteLine)))
                }
                endField()
                break loop
            }
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    if peek() == UInt8(ascii: "\"") {
                        _ = next()
                        append(byte)
                    } else {
                        inQuotes = false
                    }
                } else {
                    // A line break inside quotes is data, but still a physical line: LF, CRLF (counted at its LF)
                    // and a lone CR, as outside quotes.
                    if byte == 0x0A || (byte == 0x0D && peek() != 0x0A) { line += 1 }
                    append(byte)
                }
                continue
            }
            switch byte {
            case separator:
                endField()
            case UInt8(ascii: "\"") where field.isEmpty && !quotedField:
                inQuotes = true
                quotedField = true
                quoteLine = line
            case 0x0D:
                if peek() == 0x0A { _ = next() }
                line += 1
                endField()
                break loop
            case 0x0A:
                line += 1
                endField()
                break loop
            default:
                append(byte)
            }
        }
        if let overflow { return CSVRecord(line: startLine, .unreadable(overflow)) }
        var fields: [String] = []
        fields.reserveCapacity(rawFields.count)
        for (index, raw) in rawFields.enumerated() {
            if let problem = problem(in: raw, field: index) {
                return CSVRecord(line: startLine, .unreadable(problem))
            }
            fields.append(String(decoding: raw, as: UTF8.self))
        }
        if header == nil { header = fields }
        return CSVRecord(line: startLine, .fields(fields))
    }

    /// Field `index` with its header name when the header is known.
    private func name(_ index: Int) -> CSVFieldName {
        CSVFieldName(index: index, name: header.flatMap { index < $0.count ? $0[index] : nil })
    }

    /// Why a field's bytes cannot be a value: invalid UTF-8 or a control character other than tab and line breaks.
    private func problem(in raw: [UInt8], field index: Int) -> CSVRecordProblem? {
        for (offset, byte) in raw.enumerated() where ValueCharacters.isForbiddenControl(UInt32(byte)) {
            return .controlCharacter(name(index), byte: byte, offset: offset)
        }
        guard let bad = CSVByteSource.firstInvalidUTF8(raw) else { return nil }
        return .invalidUTF8(name(index), byte: bad.byte, offset: bad.offset)
    }
}
