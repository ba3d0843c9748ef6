import Foundation
@_exported import PassMintTestSupport
import PassModel
import PassTemplates

/// A template folder in a fresh temporary directory, removed when the body returns.
enum TemplateFolder {
    /// Writes `files` (relative path → bytes) and calls `body` with the folder path.
    @discardableResult
    static func with<R>(_ files: [String: [UInt8]], _ body: (String) throws -> R) throws -> R {
        let temporary = try TempDir()
        let dir = temporary.path("tpl")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (path, bytes) in files {
            let full = dir + "/" + path
            try FileManager.default.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: full))
        }
        return try body(dir)
    }

    /// Text files given as strings.
    @discardableResult
    static func with<R>(text files: [String: String], _ body: (String) throws -> R) throws -> R {
        try with(files.mapValues { Array($0.utf8) }, body)
    }

    /// Loads a template made of `files`.
    static func load(_ files: [String: String]) throws -> (Template, String) {
        try with(text: files) { dir in (try Template.load(directory: dir), dir) }
    }

    /// A small PNG-like payload (content is not checked by the template layer).
    static func image(_ tag: String) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(tag.utf8)
    }
}

extension RenderedPass {
    /// The file at `path`, if any.
    func file(_ path: String) -> PassFile? { files.first { $0.path == path } }
}

extension JSONValue {
    /// Follows a dotted path with `[i]` indexes, e.g. `storeCard.primaryFields[0].value`.
    func at(_ path: String) -> JSONValue? {
        var current: JSONValue? = self
        for part in path.split(separator: ".") {
            var name = Substring(part)
            var indexes: [Int] = []
            while let open = name.lastIndex(of: "["), name.last == "]" {
                indexes.insert(Int(name[name.index(after: open)..<name.index(before: name.endIndex)])!, at: 0)
                name = name[..<open]
            }
            current = current?[String(name)]
            for i in indexes {
                guard let items = current?.arrayValue, i < items.count else { return nil }
                current = items[i]
            }
        }
        return current
    }
}
