import Foundation
import PassModel

/// The little file-system access the loader needs, with errors that name the path.
enum FolderReader {
    /// Files and folders that never belong in a pass and are skipped without a warning: the pass rule
    /// (`PassFileNames.isJunk`) plus any dotfile or dot-folder (`.git`, `.idea`).
    static func isJunk(_ name: String) -> Bool {
        name.hasPrefix(".") || PassFileNames.isJunk(name)
    }

    static func isDirectory(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
    }

    static func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }

    /// Entry names of a folder, sorted byte-wise, junk removed.
    static func list(_ path: String) throws(TemplateError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: path)
                .filter { !isJunk($0) }
                .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        } catch {
            throw .unreadable(path: path, reason: "not a readable folder")
        }
    }

    /// All files under `path`, as paths relative to `path`, junk removed.
    static func filesRecursively(_ path: String) throws(TemplateError) -> [String] {
        var out: [String] = []
        for name in try list(path) {
            let full = path + "/" + name
            if isDirectory(full) {
                out += try filesRecursively(full).map { name + "/" + $0 }
            } else {
                out.append(name)
            }
        }
        return out
    }

    static func read(_ path: String, limit: Int = .max) throws(TemplateError) -> [UInt8] {
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > limit {
            throw .unreadable(path: path, reason: "\(size) bytes, more than the \(limit) bytes a template file may be")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path, reason: exists(path) ? "permission denied or not a file" : "no such file")
        }
        return [UInt8](data)
    }
}
