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
            var path = file.path
            while path.hasPrefix("./") { path.removeFirst(2) }
            if path.isEmpty || path == "manifest.json" || path == "signature" || isJunk(path) { continue }
            entries[path] = file.sha1
        }
        let sorted = entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        var out: [UInt8] = []
        out.reserveCapacity(2 + sorted.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 10 })
        out.append(UInt8(ascii: "{"))
        for (index, entry) in sorted.enumerated() {
            out.append(contentsOf: (index == 0 ? "\n  " : ",\n  ").utf8)
            JSONWriter.writeString(entry.key, into: &out)
            out.append(contentsOf: " : ".utf8)
            JSONWriter.writeString(entry.value, into: &out)
        }
        out.append(contentsOf: (sorted.isEmpty ? "}" : "\n}").utf8)
        return out
    }

    /// True for files that never belong in a pass (`PassFileNames.isJunk`): `.DS_Store`, `Thumbs.db`,
    /// `desktop.ini`, AppleDouble `._*` files, and anything under `__MACOSX/`.
    public static func isJunk(_ path: String) -> Bool {
        PassFileNames.isJunk(path)
    }
}
