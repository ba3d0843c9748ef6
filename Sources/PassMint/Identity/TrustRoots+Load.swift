import PassSigning

extension TrustRoots {
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
}
