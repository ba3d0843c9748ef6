import PassModel
import PassSigning

/// manifest.json: present, a map of path → SHA-1, every hash right, nothing missing, nothing unlisted.
enum ManifestChecks {
    /// Checks the manifest against the files; returns its raw bytes when present (the signature covers them).
    static func check(_ pass: PassFiles, into findings: inout Findings) -> [UInt8]? {
        guard let bytes = pass["manifest.json"] else {
            if pass.unreadable.contains("manifest.json") { return nil }
            findings.error(
                VerifyCode.manifestMissing,
                "there is no manifest.json at the root of the archive; Wallet needs the SHA-1 of every file "
                    + "listed there — build the pass with passmint", path: "manifest.json")
            return nil
        }
        guard let entries = parse(bytes, into: &findings) else { return bytes }

        for (path, expected) in entries.sorted(by: { $0.key < $1.key }) {
            guard let expected else {
                findings.error(
                    VerifyCode.manifestInvalid,
                    "the manifest value for '\(path)' is not a string; it must be the file's SHA-1 in hex",
                    path: "manifest.json:\(path)")
                continue
            }
            guard let content = pass[path] else {
                if path == "manifest.json" || path == "signature" || pass.unreadable.contains(path) { continue }
                findings.error(
                    VerifyCode.manifestMissingFile,
                    "manifest.json lists '\(path)' but the archive has no such file; add the file or remove it "
                        + "from the manifest and re-sign", path: path)
                continue
            }
            let actual = Manifest.sha1Hex(content)
            if actual != expected.lowercased() {
                findings.error(
                    VerifyCode.manifestHashMismatch,
                    "'\(path)' changed after signing: manifest.json says SHA-1 \(expected), the file is \(actual); "
                        + "rebuild the manifest and re-sign the pass", path: path)
            }
        }
        for name in pass.contentNames where entries[name] == nil {
            findings.error(
                VerifyCode.manifestUnlistedFile,
                "'\(name)' is in the archive but not in manifest.json; Wallet refuses unlisted files — "
                    + "remove it or rebuild the manifest and re-sign", path: name)
        }
        return bytes
    }

    /// The manifest's entries (nil values for non-string members), or nil after reporting why it is unusable.
    private static func parse(_ bytes: [UInt8], into findings: inout Findings) -> [String: String?]? {
        let document: JSONDocument
        do {
            document = try JSONReader.parse(bytes, file: "manifest.json")
        } catch {
            findings.error(
                VerifyCode.manifestInvalid,
                "manifest.json is not JSON (\(error.description)); rebuild it", path: "manifest.json")
            return nil
        }
        guard let object = document.value.objectValue else {
            findings.error(
                VerifyCode.manifestInvalid,
                "manifest.json is a JSON \(document.value.kindName), not an object of path → SHA-1; rebuild it",
                path: "manifest.json")
            return nil
        }
        if !document.isStrict {
            let list = document.leniencies.prefix(3).map(\.description).joined(separator: "; ")
            findings.error(
                VerifyCode.manifestInvalid,
                "manifest.json is not strict JSON (\(list)); rebuild it", path: "manifest.json")
        }
        return object.mapValues { $0.stringValue }
    }
}
