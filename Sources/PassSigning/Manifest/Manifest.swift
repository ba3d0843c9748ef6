internal import COpenSSL
import PassModel

/// manifest.json: the SHA-1 of every file in a pass, keyed by its path.
public enum Manifest {
    /// SHA-1, fetched once per process.
    static let sha1 = FetchedDigest(name: "SHA1")

    /// Lowercase hex SHA-1 of `bytes`.
    public static func sha1Hex(_ bytes: [UInt8]) -> String {
        sha1.digest(bytes).lowercaseHex
    }

    /// The bytes of manifest.json for `files`.
    ///
    /// A JSON object of path → SHA-1, keys sorted by their UTF-8 bytes, one entry per line with two spaces of
    /// indent, no trailing newline; `/` is not escaped. The same input always gives the same bytes.
    /// A leading "./" is dropped. `manifest.json`, `signature` and junk files (`isJunk`) are left out;
    /// when a path repeats, the last hash wins.
    public static func build(_ files: [(path: String, sha1: String)]) -> [UInt8] {
        var entries: [String: String] = [:]
        for file in files {
            guard let path = kept(file.path) else { continue }
            entries[path] = file.sha1
        }
        let sorted = entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        var out: [UInt8] = []
        out.reserveCapacity(2 + sorted.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 10 })
        out.append(UInt8(ascii: "{"))
        for (index, entry) in sorted.enumerated() {
            out.append(contentsOf: (index == 0 ? "\n  " : ",\n  ").utf8)
            out += line(entry.key, entry.value)
        }
        out.append(contentsOf: (sorted.isEmpty ? "}" : "\n}").utf8)
        return out
    }

    /// A pass's manifest.json made from entries known before it (a template variant's shared files) and the
    /// pass's own: the known entries are cleaned, sorted and written once, and each pass merges in its own few.
    public struct Prepared: Sendable {
        /// The known files as `build` keeps them, sorted by path: each path's bytes and where its entry as
        /// written lies in `written` (one buffer, so that a pass retains one array, not one per entry).
        private let lines: [(path: [UInt8], line: Range<Int>)]
        private let written: [UInt8]
        private let paths: Set<String>
        private let files: [(path: String, sha1: String)]

        public init(_ files: [(path: String, sha1: String)]) {
            self.files = files
            var kept: [String: String] = [:]
            for file in files {
                guard let path = Manifest.kept(file.path) else { continue }
                kept[path] = file.sha1
            }
            paths = Set(kept.keys)
            var written: [UInt8] = []
            lines = kept.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { path, sha1 in
                let start = written.count
                written += Manifest.line(path, sha1)
                return (Array(path.utf8), start..<written.count)
            }
            self.written = written
        }

        /// `Manifest.build(own + files)`, where `files` are those given to `init`.
        public func build(adding own: [(path: String, sha1: String)]) -> [UInt8] {
            // Merged only when nothing needs `build`'s cleaning or replaces a known entry.
            var added: [(path: [UInt8], line: [UInt8])] = []
            var seen: Set<String> = []
            for file in own {
                guard Manifest.kept(file.path) == file.path, !paths.contains(file.path), seen.insert(file.path).inserted
                else { return Manifest.build(own + files) }
                added.append((Array(file.path.utf8), Manifest.line(file.path, file.sha1)))
            }
            added.sort { $0.path.lexicographicallyPrecedes($1.path) }
            var out: [UInt8] = []
            out.reserveCapacity(2 + (lines.count + added.count) * 64)
            out.append(UInt8(ascii: "{"))
            var i = 0
            var j = 0
            while i < lines.count || j < added.count {
                let takeAdded =
                    i == lines.count || (j < added.count && added[j].path.lexicographicallyPrecedes(lines[i].path))
                out.append(contentsOf: (i + j == 0 ? "\n  " : ",\n  ").utf8)
                if takeAdded {
                    out += added[j].line
                    j += 1
                } else {
                    out += written[lines[i].line]
                    i += 1
                }
            }
            out.append(contentsOf: (i + j == 0 ? "}" : "\n}").utf8)
            return out
        }
    }

    /// The path as manifest.json lists it (a leading "./" dropped), or nil when it is not listed.
    static func kept(_ path: String) -> String? {
        var path = path
        while path.hasPrefix("./") { path.removeFirst(2) }
        if path.isEmpty || path == "manifest.json" || path == "signature" || isJunk(path) { return nil }
        return path
    }

    /// One entry as written: `"path" : "sha1"`.
    static func line(_ path: String, _ sha1: String) -> [UInt8] {
        var out: [UInt8] = []
        JSONWriter.writeString(path, into: &out)
        out.append(contentsOf: " : ".utf8)
        JSONWriter.writeString(sha1, into: &out)
        return out
    }

    /// True for files that never belong in a pass (`PassFileNames.isJunk`): `.DS_Store`, `Thumbs.db`,
    /// `desktop.ini`, AppleDouble `._*` files, and anything under `__MACOSX/`.
    public static func isJunk(_ path: String) -> Bool {
        PassFileNames.isJunk(path)
    }
}
