import Foundation
import PassModel

/// Reads a record (field values) from a JSON object file.
public enum RecordFile {
    /// Most bytes a record file may hold: one member's values are a few KB.
    public static let maxBytes = 1 << 20

    /// Loads `{"field": value, …}`; strings, numbers and booleans become strings.
    public static func load(path: String) throws(PassMintError) -> [String: String] {
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > maxBytes {
            throw .recordFile(path: path, .tooLarge(size: size, limit: maxBytes))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .recordFile(path: path, .unreadable)
        }
        let document: JSONDocument
        do {
            document = try JSONReader.parse([UInt8](data), file: path)
        } catch {
            throw .recordFile(path: path, .notJSON(error))
        }
        guard case .object(let members) = document.value else {
            throw .recordFile(path: path, .notAnObject)
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
                throw .recordFile(path: path, .notAScalar(key: key, kind: value.kindName))
            }
        }
        return record
    }
}
