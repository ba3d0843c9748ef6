import Foundation
import PassArchive
import PassModel
import PassTemplates

/// Builds issuers from paths, turning library errors into `PassMintError`s.
public enum PassFactory {
    /// Loads the template and the signing identity.
    public static func issuer(templateDirectory: String, identity: IdentityOptions) throws(PassMintError) -> PassIssuer {
        let template = try loadTemplate(templateDirectory)
        return PassIssuer(template: template, identity: try identity.load())
    }

    /// Loads a template folder; a missing folder is named with what to do.
    public static func loadTemplate(_ directory: String) throws(PassMintError) -> Template {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .invalidInput(
                "template folder \(directory) does not exist; give a folder holding pass.json (see Templates/ for examples)")
        }
        do {
            return try Template.load(directory: directory)
        } catch {
            throw .invalidInput("\(error)")
        }
    }
}

/// Writes outputs atomically (temporary name, then rename).
public enum PassOutput {
    /// Writes `bytes` to `path` via a temporary file in the same folder. `durable` also fsyncs file and folder
    /// (batch skips that: a killed run is repaired by `--resume`, which re-checks every file).
    public static func write(_ bytes: [UInt8], to path: String, durable: Bool = true) throws(PassMintError) {
        do {
            try AtomicFile.write(bytes, to: path, durable: durable)
        } catch {
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
                throw .environment("cannot write \(path): folder \(folder) does not exist; create it first")
            }
            throw .environment("cannot write \(path): \(error)")
        }
    }
}

/// Reads a record (field values) from a JSON object file.
public enum RecordFile {
    /// Loads `{"field": value, …}`; strings, numbers and booleans become strings.
    public static func load(path: String) throws(PassMintError) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .invalidInput("--data \(path): cannot read the file; check the path")
        }
        let document: JSONDocument
        do {
            document = try JSONReader.parse([UInt8](data), file: path)
        } catch {
            throw .invalidInput("\(error)")
        }
        guard case .object(let members) = document.value else {
            throw .invalidInput("\(path): expected a JSON object of field values like {\"tier\": \"Gold\"}")
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
                throw .invalidInput("\(path): value of \(key) is a \(value.kindName); field values must be strings or numbers")
            }
        }
        return record
    }
}
