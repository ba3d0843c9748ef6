import Foundation

/// What changes between two versions of a template: files added, removed or changed, and for its JSON files
/// (pass.json, template.json) the changed keys with their old and new values.
package struct TemplateDiff: Sendable, Equatable {
    /// One file's change.
    package enum FileChange: Sendable, Equatable {
        case added(String), removed(String), changed(String)

        /// The file the change is about.
        package var path: String {
            switch self {
            case .added(let path), .removed(let path), .changed(let path): return path
            }
        }
    }

    /// One changed JSON value: `key` is a dotted path with `[i]` for array elements (`barcodes[0].format`);
    /// values are shown as they are written (strings bare, everything else as JSON), nil when absent.
    package struct KeyChange: Sendable, Equatable {
        /// The JSON file (`pass.json`, `template.json`).
        package var file: String
        package var key: String
        /// nil: the key is new.
        package var old: String?
        /// nil: the key was removed.
        package var new: String?
    }

    /// Sorted by path.
    package let files: [FileChange]
    /// Per changed JSON file, sorted by key.
    package let keys: [KeyChange]

    /// Compares `old` (nil: there was no earlier version, every file is added) with `new`.
    package init(old: [String: [UInt8]]?, new: [String: [UInt8]]) {
        let old = old ?? [:]
        let paths = Set(old.keys).union(new.keys).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var files: [FileChange] = []
        var keys: [KeyChange] = []
        for path in paths {
            switch (old[path], new[path]) {
            case (nil, .some): files.append(.added(path))
            case (.some, nil): files.append(.removed(path))
            case (let before?, let after?) where before != after:
                files.append(.changed(path))
                if path.hasSuffix(".json"), !path.contains("/") {
                    keys += Self.keyChanges(file: path, old: before, new: after)
                }
            default: break
            }
        }
        self.files = files
        self.keys = keys
    }

    /// True when the versions hold the same files.
    package var isEmpty: Bool { files.isEmpty }

    /// Leaf-by-leaf comparison; a file that does not parse as JSON is only reported as changed.
    static func keyChanges(file: String, old: [UInt8], new: [UInt8]) -> [KeyChange] {
        guard let before = leaves(old), let after = leaves(new) else { return [] }
        return Set(before.keys).union(after.keys).sorted().compactMap { key in
            before[key] == after[key] ? nil : KeyChange(file: file, key: key, old: before[key], new: after[key])
        }
    }

    private static func leaves(_ bytes: [UInt8]) -> [String: String]? {
        guard let root = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) else {
            return nil
        }
        var out: [String: String] = [:]
        flatten(root, path: "", into: &out)
        return out
    }

    private static func flatten(_ value: Any, path: String, into out: inout [String: String]) {
        if let object = value as? [String: Any], !object.isEmpty {
            for (key, child) in object { flatten(child, path: path.isEmpty ? key : path + "." + key, into: &out) }
        } else if let array = value as? [Any], !array.isEmpty {
            for (index, child) in array.enumerated() { flatten(child, path: "\(path)[\(index)]", into: &out) }
        } else if let string = value as? String {
            out[path] = string
        } else if let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]) {
            out[path] = String(decoding: data, as: UTF8.self)
        }
    }
}
