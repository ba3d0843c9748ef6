import Foundation
import PassArchive
import PassModel
import PassSigning

/// Decides whether a pass left by an earlier (possibly killed) run can be kept.
enum ResumeCheck {
    /// True when `path` is a complete pass: every entry listed in a manifest whose hashes match, and a signature
    /// that verifies over it.
    static func isValidPass(at path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path),
            let archive = try? ArchiveReader(bytes: [UInt8](data), name: path),
            let manifestBytes = try? archive.read("manifest.json"),
            let signature = try? archive.read("signature"),
            let manifest = try? JSONReader.parse(manifestBytes, file: "manifest.json").value.objectValue
        else { return false }
        let files = archive.files.filter { $0.name != "manifest.json" && $0.name != "signature" }
        guard files.count == manifest.count else { return false }
        for file in files {
            guard manifest[file.name]?.stringValue == Manifest.sha1Hex(file.bytes) else { return false }
        }
        guard let report = try? SignatureReport.inspect(signature: signature, content: manifestBytes) else { return false }
        return report.digestValid
    }

    /// Removes temporary files a killed run left behind (`<name>.tmp-<random>`).
    static func removeStaleTemporaries(in directory: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.contains(".tmp-") {
            try? FileManager.default.removeItem(atPath: "\(directory)/\(name)")
        }
    }
}
