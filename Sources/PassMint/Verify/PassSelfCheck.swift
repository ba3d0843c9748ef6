/// `generate` checks what it made with the same rules as `verify` before anything is written.
public enum PassSelfCheck {
    /// Throws `.invalidPass` with every error `verify` would report for this archive.
    public static func require(_ pass: IssuedPass, name: String) throws(PassMintError) {
        let report = PassVerifier.verify(archive: pass.archive, name: name)
        let errors = report.problems.filter { $0.severity == .error }
        guard errors.isEmpty else { throw .invalidPass(file: name, problems: errors) }
    }
}
