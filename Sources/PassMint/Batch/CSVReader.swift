import Foundation

/// One CSV record: its fields, or why it could not be read, and the line it starts on.
public struct CSVRecord: Sendable {
    /// First physical line of the record (1-based; the header is line 1).
    public let line: Int
    /// The fields, when the record is valid UTF-8.
    public let fields: [String]?
    /// Why the record is unusable (e.g. invalid UTF-8), naming the field.
    public let error: String?
}

/// Streams RFC 4180 CSV from a file: quoted fields with commas, doubled quotes and line breaks; CRLF or LF;
/// UTF-8 with or without a BOM. Memory stays flat: the file is read in 64 KB chunks.
public final class CSVReader {
    private let handle: FileHandle
    private let path: String
    private var buffer: [UInt8] = []
    private var position = 0
    private var eof = false
    private var line = 1
    private var started = false

    /// Opens `path` for reading.
    public init(path: String) throws(PassMintError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .invalidInput("--csv \(path): cannot open the file; check the path")
        }
        self.handle = handle
        self.path = path
    }

    deinit { try? handle.close() }

    private func fill() -> Bool {
        if position < buffer.count { return true }
        if eof { return false }
        let chunk = handle.readData(ofLength: 65_536)
        if chunk.isEmpty {
            eof = true
            return false
        }
        buffer = [UInt8](chunk)
        position = 0
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
    /// - Throws: only for an unterminated quoted field at the end of the file.
    public func nextRecord() throws(PassMintError) -> CSVRecord? {
        if !started {
            started = true
            if peek() == 0xEF {
                // Only skip a complete UTF-8 BOM.
                let saved = position
                if next() == 0xEF, next() == 0xBB, next() == 0xBF {
                } else {
                    position = saved
                }
            }
        }
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
        var rawFields: [[UInt8]] = []
        var field: [UInt8] = []
        var inQuotes = false
        var quotedField = false
        loop: while true {
            guard let byte = next() else {
                if inQuotes {
                    throw .invalidInput(
                        "\(path):\(startLine): a quoted field is never closed; add the closing '\"' (doubled quotes \"\" stand for one quote)")
                }
                rawFields.append(field)
                break loop
            }
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    if peek() == UInt8(ascii: "\"") {
                        _ = next()
                        field.append(byte)
                    } else {
                        inQuotes = false
                    }
                } else {
                    // A line break inside quotes is data, but still a physical line: LF, CRLF (counted at its LF)
                    // and a lone CR, as outside quotes.
                    if byte == 0x0A || (byte == 0x0D && peek() != 0x0A) { line += 1 }
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: ","):
                rawFields.append(field)
                field = []
                quotedField = false
            case UInt8(ascii: "\"") where field.isEmpty && !quotedField:
                inQuotes = true
                quotedField = true
            case 0x0D:
                if peek() == 0x0A { _ = next() }
                line += 1
                rawFields.append(field)
                break loop
            case 0x0A:
                line += 1
                rawFields.append(field)
                break loop
            default:
                field.append(byte)
            }
        }
        var fields: [String] = []
        fields.reserveCapacity(rawFields.count)
        for (index, raw) in rawFields.enumerated() {
            guard let text = String(validating: raw, as: UTF8.self) else {
                return CSVRecord(
                    line: startLine, fields: nil,
                    error: "field \(index + 1) is not valid UTF-8; save the CSV as UTF-8")
            }
            fields.append(text)
        }
        return CSVRecord(line: startLine, fields: fields, error: nil)
    }
}
