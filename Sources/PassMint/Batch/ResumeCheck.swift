import Foundation
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

    /// Removes temporary files a killed run left behind (`<name>.tmp-<random>`).
    static func removeStaleTemporaries(in directory: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.contains(".tmp-") {
            try? FileManager.default.removeItem(atPath: "\(directory)/\(name)")
        }
    }
}
