import PassSigning

extension TrustRoots {
    /// Loads every certificate in each PEM/DER file.
    /// - Throws: `PassMintError.trustRoot` naming the file that cannot be read or holds no certificate.
    public static func load(_ paths: [String]) throws(PassMintError) -> TrustRoots {
        var roots: [(file: String, certificate: Certificate)] = []
        for path in paths {
            let certificates: [Certificate]
            do { certificates = try Certificate.loadAll(path: path) } catch {
                throw .trustRoot(path: path, .unreadable(error))
            }
            guard !certificates.isEmpty else {
                throw .trustRoot(path: path, .empty)
            }
            roots += certificates.map { (path, $0) }
        }
        return TrustRoots(roots: roots)
    }
}
