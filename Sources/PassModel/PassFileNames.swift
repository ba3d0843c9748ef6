/// Names of the files a pass is made of.
public enum PassFileNames {
    /// True for operating-system clutter that never belongs in a pass: `.DS_Store`, `Thumbs.db`, `desktop.ini`,
    /// AppleDouble `._*` files, and anything under `__MACOSX/`. The one rule behind the manifest, the archive
    /// reader and `verify`.
    /// - Parameter path: a `/`-separated path inside a pass or an archive.
    public static func isJunk(_ path: String) -> Bool {
        // Byte-wise: it runs for every file of every pass a batch signs.
        var path = path
        return path.withUTF8 { bytes in
            var start = 0
            var last = 0..<0
            for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: "/") {
                defer { start = end + 1 }
                guard end > start else { continue }
                if bytes[start..<end].elementsEqual("__MACOSX".utf8) { return true }
                last = start..<end
            }
            let name = bytes[last]
            return name.starts(with: "._".utf8) || name.elementsEqual(".DS_Store".utf8)
                || name.elementsEqual("Thumbs.db".utf8) || name.elementsEqual("desktop.ini".utf8)
        }
    }
}
