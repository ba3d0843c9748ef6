import Glibc
import PassMint

/// Where a record's image path leads, checked to stay inside the folder images may come from.
///
/// A record names its photo with a path relative to a base folder (the CSV's folder, the data file's folder, the
/// current directory, or an image folder that overrides them). The path is resolved with `realpath`, so `..` and
/// symlinks are followed before the check: a symlink inside the folder that points outside is refused like
/// `../secret.jpg`. Absolute paths are allowed only when they lead inside the folder too.
struct PhotoPath: Sendable {
    /// The path as the record wrote it, for messages.
    let given: String
    /// The resolved absolute path of the file (no symlinks).
    let resolved: String

    /// Resolves `path` against `folder` and refuses anything outside it.
    /// - Throws: `PhotoError.outsideFolder`, `.missing`.
    init(_ path: String, in folder: String) throws(PhotoError) {
        given = path
        let base = Self.realPath(folder) ?? Self.normalized(Self.absolute(folder))
        let joined = path.hasPrefix("/") ? path : base + "/" + path
        // Lexical check first, so that a missing `../x.jpg` is reported as outside rather than as missing.
        guard Self.isInside(Self.normalized(joined), base) else {
            throw .outsideFolder(file: path, folder: base)
        }
        guard let real = Self.realPath(joined) else {
            throw .missing(file: path)
        }
        guard Self.isInside(real, base) else { throw .outsideFolder(file: path, folder: base) }
        resolved = real
    }

    /// True when `path` is `folder` itself or below it (both absolute and normalised).
    static func isInside(_ path: String, _ folder: String) -> Bool {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return path.hasPrefix(prefix)
    }

    /// `realpath(3)`: absolute, no `.`/`..`, no symlinks; nil when any part is missing.
    static func realPath(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// `path` made absolute against the current directory.
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let cwd = getcwd(nil, 0) else { return "/" + path }
        defer { free(cwd) }
        return String(cString: cwd) + "/" + path
    }

    /// Removes `.` and `..` components without touching the file system (`..` above `/` stays at `/`).
    static func normalized(_ absolute: String) -> String {
        var parts: [Substring] = []
        for part in absolute.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }
}
