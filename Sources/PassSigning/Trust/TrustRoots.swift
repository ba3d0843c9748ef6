import PassSigning

/// Roots a team trusts in place of Apple's for the chain checks (a test or enterprise CA): a signer whose
/// intermediate was issued by one of them (or is one of them) counts as Apple-issued, and reports say so.
/// Without any, only Apple's pinned WWDR intermediates count.
public struct TrustRoots: Sendable {
    /// The trusted certificates with the file each came from.
    public let roots: [(file: String, certificate: Certificate)]

    /// No extra roots: the Apple rule alone.
    public static let none = TrustRoots(roots: [])

    init(roots: [(file: String, certificate: Certificate)]) { self.roots = roots }

    /// Loads every certificate in each PEM/DER file.
    /// - Throws: `PassMintError.environment` naming the file that cannot be read or holds no certificate.
    public static func load(_ paths: [String]) throws(PassMintError) -> TrustRoots {
        var roots: [(file: String, certificate: Certificate)] = []
        for path in paths {
            let certificates: [Certificate]
            do { certificates = try Certificate.loadAll(path: path) } catch {
                throw .environment("trust root \(path): \(error)", about: .trustRoot)
            }
            guard !certificates.isEmpty else {
                throw .environment(
                    "trust root \(path) holds no certificate; give a PEM or DER CA certificate", about: .trustRoot)
            }
            roots += certificates.map { (path, $0) }
        }
        return TrustRoots(roots: roots)
    }

    /// The trusted root the chain `leaf` ← `intermediate` leads to, nil when none does.
    func root(for leaf: Certificate, intermediate: Certificate?) -> (file: String, certificate: Certificate)? {
        roots.first { root in
            if let intermediate {
                return intermediate == root.certificate || intermediate.isIssued(by: root.certificate)
            }
            return leaf.isIssued(by: root.certificate)
        }
    }
}
