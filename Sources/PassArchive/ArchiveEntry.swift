import PassModel

/// One file inside an archive: its path inside the zip (e.g. `pass.json`, `en.lproj/pass.strings`) and its bytes.
public struct ArchiveEntry: Sendable, Equatable {
    /// Path inside the archive, `/`-separated, no leading `/`.
    public var name: String
    /// Uncompressed content.
    public var bytes: [UInt8]

    /// Creates an entry.
    /// - Parameters:
    ///   - name: path inside the archive.
    ///   - bytes: uncompressed content.
    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }
}

extension ArchiveEntry {
    /// Whether `name` is operating-system clutter that does not belong in a pass (`PassFileNames.isJunk`):
    /// anything under `__MACOSX/`, AppleDouble `._*` files, `.DS_Store`, `Thumbs.db` and `desktop.ini`.
    /// - Parameter name: an entry name as listed by `ArchiveReader.entryNames`.
    public static func isJunk(_ name: String) -> Bool {
        PassFileNames.isJunk(name)
    }

    /// Checks that `name` is a plain relative file path that any unzip tool extracts where it should:
    /// not empty, no leading `/`, no `\`, no empty, `.` or `..` component, no trailing `/` (no directory entries).
    /// - Throws: `ArchiveError.invalidEntryName` naming the problem.
    static func validate(name: String) throws(ArchiveError) {
        // Checked for every entry of every pass: one pass over the bytes; only a bad name is looked at again to
        // say what is wrong with it.
        if isPlainPath(name.utf8) { return }
        if name.isEmpty { throw .invalidEntryName(entry: name, reason: "the name is empty") }
        if name.utf8.count > 0xFFFF { throw .invalidEntryName(entry: name, reason: "the name is too long") }
        if name.hasPrefix("/") { throw .invalidEntryName(entry: name, reason: "it starts with '/'") }
        if name.hasSuffix("/") {
            throw .invalidEntryName(entry: name, reason: "it ends with '/'; directory entries are not written")
        }
        if name.contains("\\") { throw .invalidEntryName(entry: name, reason: "it contains '\\'; use '/'") }
        if name.utf8.contains(0) { throw .invalidEntryName(entry: name, reason: "it contains a NUL byte") }
        for part in name.split(separator: "/", omittingEmptySubsequences: false) {
            if part.isEmpty { throw .invalidEntryName(entry: name, reason: "it contains '//'") }
            if part == "." || part == ".." {
                throw .invalidEntryName(entry: name, reason: "it contains a '\(part)' path component")
            }
        }
    }

    /// Whether `name` passes every rule of `validate(name:)`.
    private static func isPlainPath(_ name: String.UTF8View) -> Bool {
        guard !name.isEmpty, name.count <= 0xFFFF else { return false }
        var componentLength = 0
        var componentDots = 0
        for byte in name {
            switch byte {
            case UInt8(ascii: "/"):
                guard componentLength > 0, componentDots != componentLength || componentDots > 2 else { return false }
                componentLength = 0
                componentDots = 0
                continue
            case UInt8(ascii: "\\"), 0:
                return false
            case UInt8(ascii: "."):
                componentDots += 1
            default:
                break
            }
            componentLength += 1
        }
        return componentLength > 0 && (componentDots != componentLength || componentDots > 2)
    }

    /// Byte-wise (UTF-8) name order, the order PassMint writes entries in.
    static func namePrecedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
