import Foundation

/// Decides whether a pass left by an earlier (possibly killed) run can be kept.
enum ResumeCheck {
    /// True when `path` holds a pass that `passmint verify` finds no error in (complete archive, manifest hashes,
    /// signature over the manifest, pass.json rules): the same checks, not a second copy of them.
    static func isValidPass(at path: String) -> Bool {
        PassVerifier.verify(file: path).allSatisfy(\.valid)
    }

    /// Removes temporary files a killed run left behind (`<name>.tmp-<random>`).
    static func removeStaleTemporaries(in directory: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.contains(".tmp-") {
            try? FileManager.default.removeItem(atPath: "\(directory)/\(name)")
        }
    }
}
