/// Roots a team trusts in place of Apple's for the chain checks (a test or enterprise CA): a signer whose
/// intermediate was issued by one of them (or is one of them) counts as Apple-issued, and reports say so.
/// Without any, only Apple's pinned WWDR intermediates count.
public struct TrustRoots: Sendable {
    /// The trusted certificates with the file each came from.
    public let roots: [(file: String, certificate: Certificate)]

    /// No extra roots: the Apple rule alone.
    public static let none = TrustRoots(roots: [])

    /// Trusts `roots` (see `TrustRoots.load(_:)` in PassMint for reading them from files).
    package init(roots: [(file: String, certificate: Certificate)]) { self.roots = roots }

    /// The trusted root the chain `leaf` ← `intermediate` leads to, nil when none does.
    package func root(for leaf: Certificate, intermediate: Certificate?) -> (file: String, certificate: Certificate)? {
        roots.first { root in
            if let intermediate {
                return intermediate == root.certificate || intermediate.isIssued(by: root.certificate)
            }
            return leaf.isIssued(by: root.certificate)
        }
    }
}
