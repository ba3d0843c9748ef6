import PassModel

/// A template's files before they are assembled into a `Template`: relative `/`-separated paths and their bytes.
///
/// Loading is split in two so that a template can come from anywhere: `read(directory:)` reads a folder, and a
/// caller that unpacked a zipped template (PassTemplates does not open zips) builds one with
/// `init(name:files:)`. `Template.load(_:options:)` then assembles either the same way.
public struct TemplateSource: Sendable {
    /// How messages name the template (the folder, or the zip file and the folder inside it); file names in
    /// messages are `name/path`.
    public let name: String
    /// Relative path → bytes. Junk (`.DS_Store`, `__MACOSX/…`, dotfiles) is already left out.
    public let files: [String: [UInt8]]

    /// A template held in memory, such as the entries of a zipped `.pkpasstemplate`.
    ///
    /// When there is no top-level `pass.json` but every file sits in one top-level folder that has one (how a
    /// zipped folder usually looks), that folder is the template and `name` gains its name.
    /// - Parameters:
    ///   - name: the template's name in messages, e.g. the zip file's path.
    ///   - files: relative path → bytes; directory entries (ending in `/`) and junk are dropped.
    public init(name: String, files: [String: [UInt8]]) {
        var kept: [String: [UInt8]] = [:]
        for (path, bytes) in files {
            var path = path
            while path.hasPrefix("./") { path.removeFirst(2) }
            guard !path.isEmpty, !path.hasSuffix("/"), !Self.isJunk(path) else { continue }
            kept[path] = bytes
        }
        var name = name
        while name.count > 1, name.hasSuffix("/") { name.removeLast() }
        if kept["pass.json"] == nil, let folder = Self.singleTopFolder(kept), kept[folder + "/pass.json"] != nil {
            let prefix = folder + "/"
            kept = Dictionary(uniqueKeysWithValues: kept.map { (String($0.key.dropFirst(prefix.count)), $0.value) })
            name += "/" + folder
        }
        self.name = name
        self.files = kept
    }

    /// Most files a template folder may hold, most bytes of one file, and of all of them: a pass is a few hundred
    /// KB, so these only stop a wrong folder (a home directory, a photo library) from being read into memory.
    public static let maxFiles = 1_000
    public static let maxFileBytes = 16 << 20
    public static let maxTotalBytes = 128 << 20

    /// Reads every file under a template folder once.
    /// - Parameter directory: the template folder (a trailing `/` is ignored).
    /// - Throws: `TemplateError.unreadable` naming the folder or file.
    public static func read(directory: String) throws(TemplateError) -> TemplateSource {
        var dir = directory
        while dir.count > 1, dir.hasSuffix("/") { dir.removeLast() }
        guard FolderReader.isDirectory(dir) else {
            throw .unreadable(path: dir, reason: FolderReader.exists(dir) ? "not a folder" : "no such folder")
        }
        var files: [String: [UInt8]] = [:]
        let paths = try FolderReader.filesRecursively(dir)
        guard paths.count <= Self.maxFiles else {
            throw .unreadable(
                path: dir, reason: "\(paths.count) files, more than the \(Self.maxFiles) a template may hold")
        }
        var total = 0
        for path in paths {
            let bytes = try FolderReader.read(dir + "/" + path, limit: Self.maxFileBytes)
            total += bytes.count
            guard total <= Self.maxTotalBytes else {
                throw .unreadable(path: dir, reason: "its files hold more than \(Self.maxTotalBytes) bytes")
            }
            files[path] = bytes
        }
        return TemplateSource(folder: dir, files: files)
    }

    /// A folder as read: no top-level folder is unwrapped (a folder template is exactly its folder).
    private init(folder: String, files: [String: [UInt8]]) {
        self.name = folder
        self.files = files
    }

    /// True for a Pass Designer template: its name ends in `.pkpasstemplate`, or it has a `tooling.json`.
    public var isDesignerTemplate: Bool {
        let last = name.split(separator: "/").last.map(String.init) ?? name
        return last.lowercased().hasSuffix(".pkpasstemplate") || files[ToolingManifest.fileName] != nil
    }

    /// Files directly at the top level, sorted byte-wise.
    var topLevelFiles: [String] { sorted(files.keys.filter { !$0.contains("/") }) }

    /// Top-level folder name → the paths inside it (relative to that folder), each sorted byte-wise.
    var folders: [(name: String, files: [String])] {
        var out: [String: [String]] = [:]
        for path in files.keys {
            guard let slash = path.firstIndex(of: "/") else { continue }
            out[String(path[..<slash]), default: []].append(String(path[path.index(after: slash)...]))
        }
        return sorted(Array(out.keys)).map { ($0, sorted(out[$0]!)) }
    }

    /// `name/path`, for messages.
    func file(_ path: String) -> String { name + "/" + path }

    private func sorted(_ names: [String]) -> [String] {
        names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Junk anywhere in the path (`FolderReader.isJunk` of each component), as a folder read would skip it.
    static func isJunk(_ path: String) -> Bool {
        path.split(separator: "/").contains { FolderReader.isJunk(String($0)) }
    }

    private static func singleTopFolder(_ files: [String: [UInt8]]) -> String? {
        var folder: Substring?
        for path in files.keys {
            guard let slash = path.firstIndex(of: "/") else { return nil }
            let top = path[..<slash]
            if let folder, folder != top { return nil }
            folder = top
        }
        return folder.map(String.init)
    }
}
