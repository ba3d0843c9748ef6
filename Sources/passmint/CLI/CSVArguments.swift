import Foundation
import PassMint

/// `--delimiter` / `--encoding` and the `PASSMINT_CSV_MAX_*` limits, shared by the commands that read CSV
/// (batch, update --csv).
enum CSVArguments {
    static let delimiter = Option<String>(
        "delimiter", "SEP", "field separator: , ; tab or | (default: detected from the header)")
    static let encoding = Option<String>(
        "encoding", "ENC",
        "CSV encoding: utf-8, utf-16le, utf-16be, windows-1252 or latin1 (default: UTF-8, or UTF-16 by its BOM)")
    static let options: [any OptionDeclaration] = [delimiter, encoding]

    static func format(_ args: ParsedArguments) throws(CLIError) -> CSVFormat {
        var format = CSVFormat()
        if let text = args[delimiter] {
            guard let delimiter = CSVDelimiter(name: text) else {
                throw .usage("--delimiter takes , ; tab or |; got '\(text)'")
            }
            format.delimiter = delimiter
        }
        if let text = args[encoding] {
            guard let encoding = CSVEncoding(name: text) else {
                throw .usage("--encoding takes one of \(CSVEncoding.names); got '\(text)'")
            }
            format.encoding = encoding
        }
        for (variable, keyPath) in [
            ("PASSMINT_CSV_MAX_FIELD_BYTES", \CSVLimits.maxFieldBytes),
            ("PASSMINT_CSV_MAX_RECORD_BYTES", \.maxRecordBytes),
        ] {
            guard let text = ProcessInfo.processInfo.environment[variable] else { continue }
            guard let value = Int(text), value > 0 else {
                throw .usage("\(variable) must be a positive number of bytes; got '\(text)'")
            }
            format.limits[keyPath: keyPath] = value
        }
        return format
    }
}
