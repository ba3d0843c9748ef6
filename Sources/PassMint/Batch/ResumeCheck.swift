import Foundation
import PassArchive
import PassModel
import PassSigning

/// Decides whether a pass left by an earlier (possibly killed) run can be kept.
enum ResumeCheck {
    /// The bytes at `path` when they are a pass that `passmint verify` finds no error in (complete archive,
    /// manifest hashes, signature over the manifest, pass.json rules): the same checks, not a second copy of them.
    /// nil when the file is missing or not such a pass. Read once, so the caller can reuse the bytes.
    static func validPass(at path: String, trust: TrustRoots) -> [UInt8]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let bytes = [UInt8](data)
        return PassVerifier.verify(bytes: bytes, name: path, trust: trust).allSatisfy(\.valid) ? bytes : nil
    }

    /// What a kept pass holds that tells whether this run would make the same pass: its token and web service
    /// (pass.json) and its manifest.json bytes. nil when the archive cannot be read.
    static func contents(_ bytes: [UInt8], name: String) -> (
        token: String?, webServiceURL: String?, passType: String, manifest: [UInt8]
    )? {
        guard let reader = try? ArchiveReader(bytes: bytes, name: name), let json = try? reader.read("pass.json"),
            let manifest = try? reader.read("manifest.json"), let pass = try? JSONReader.parse(json, file: name).value
        else { return nil }
        return (
            pass["authenticationToken"]?.stringValue, pass["webServiceURL"]?.stringValue,
            pass["passTypeIdentifier"]?.stringValue ?? "", manifest
        )
    }

    /// Removes temporary files a killed run left behind (`<name>.tmp-<random>`).
    static func removeStaleTemporaries(in directory: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.contains(".tmp-") {
            try? FileManager.default.removeItem(atPath: "\(directory)/\(name)")
        }
    }
}
