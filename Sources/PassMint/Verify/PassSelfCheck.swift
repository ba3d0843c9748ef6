import PassSigning
/// `generate` checks what it made with the same rules as `verify` before anything is written.
public enum PassSelfCheck {
    /// Throws `.invalidPass` with every error `verify` would report for this archive.
    /// - Parameter trust: roots accepted in place of Apple's (a team's own test chain).
    public static func require(_ pass: IssuedPass, name: String, trust: TrustRoots = .none) throws(PassMintError) {
        let report = PassVerifier.verify(archive: pass.archive, name: name, trust: trust)
        let errors = report.problems.filter { $0.severity == .error }
        guard errors.isEmpty else { throw .invalidPass(file: name, problems: errors) }
    }
}
