import Foundation
import PassModel

/// Reads a record (field values) from a JSON object file.
public enum RecordFile {
    /// Most bytes a record file may hold: one member's values are a few KB.
    public static let maxBytes = 1 << 20

    /// Loads `{"field": value, …}`; strings, numbers and booleans become strings.
    public static func load(path: String) throws(PassMintError) -> [String: String] {
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > maxBytes {
            throw .invalidInput(
                "\(path): \(size) bytes, more than the \(maxBytes) a record file may hold; give one record",
                about: .data)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .invalidInput("\(path): cannot read the record file; check the path", about: .data)
        }
        let document: JSONDocument
        do {
            document = try JSONReader.parse([UInt8](data), file: path)
        } catch {
            throw .invalidInput(error.description, about: .data)
        }
        guard case .object(let members) = document.value else {
            throw .invalidInput(
                "\(path): expected a JSON object of field values like {\"tier\": \"Gold\"}", about: .data)
        }
        var record: [String: String] = [:]
        for (key, value) in members {
            switch value {
            case .string(let s): record[key] = s
            case .integer(let i): record[key] = String(i)
            case .double(let d): record[key] = String(d)
            case .bool(let b): record[key] = b ? "true" : "false"
            case .null: continue
            case .array, .object:
                throw .invalidInput(
                    "\(path): value of \(key) is a \(value.kindName); field values must be strings or numbers",
                    about: .data)
            }
        }
        return record
    }
}
