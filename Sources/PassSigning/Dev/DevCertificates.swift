internal import COpenSSL

/// Where `DevCertificates.generate` wrote each file.
public struct DevCertificatePaths: Sendable, Equatable {
    /// The folder holding every file.
    public let directory: String
    /// root-ca.pem: the self-signed development root (trust it with `-CAfile` when verifying).
    public let rootCA: String
    /// wwdr.pem: the WWDR-like intermediate (OU=G4).
    public let wwdr: String
    /// pass-cert.pem: the Pass Type ID leaf certificate.
    public let certificate: String
    /// pass-key.pem: the leaf's private key (mode 0600).
    public let key: String
    /// pass.p12: leaf, key and WWDR, password `DevCertificates.pkcs12Password` (mode 0600).
    public let pkcs12: String
}

/// A local test chain shaped like Apple's: root CA → WWDR-like intermediate → Pass Type ID certificate.
///
/// Passes signed with it verify with `openssl cms -verify -CAfile root-ca.pem -purpose any`, but no iPhone
/// accepts them: they are for development and tests only.
public enum DevCertificates {
    /// The password of the generated pass.p12.
    public static let pkcs12Password = "passmint-dev"

    /// Writes dir/root-ca.pem, dir/wwdr.pem, dir/pass-cert.pem, dir/pass-key.pem (0600) and dir/pass.p12 (0600).
    ///
    /// The leaf's subject is `UID=<id>, CN=Pass Type ID: <id>, OU=<team>, O=PassMint Development, C=US`; it carries
    /// extension 1.2.840.113635.100.6.1.16 (the id as UTF8String), EKU 1.2.840.113635.100.4.14 and clientAuth,
    /// keyUsage digitalSignature. RSA-2048, SHA-256; root and intermediate are valid 10 years, the leaf `validDays`.
    /// Each file is written to a temporary name and renamed into place; a missing folder is created with mode 0700.
    /// - Parameter nfc: make an NFC-enabled ("enhanced") leaf, CN `Pass Type ID with NFC: <id>`, the kind passes
    ///   with `nfc` or `personalization.json` need.
    /// - Throws: `SigningError.fileUnwritable` or `.generationFailed`.
    @discardableResult
    public static func generate(
        directory: String, passTypeIdentifier: String = "pass.dev.passmint", teamIdentifier: String = "PASSMINT01",
        validDays: Int = 365, nfc: Bool = false
    ) throws(SigningError) -> DevCertificatePaths {
        let chain = try makeChain(
            passTypeIdentifier: passTypeIdentifier, teamIdentifier: teamIdentifier,
            validDays: validDays, nfc: nfc)
        return try write(chain, to: directory)
    }

    /// Writes an in-memory chain's five files into `directory`.
    static func write(_ chain: Chain, to directory: String) throws(SigningError) -> DevCertificatePaths {
        try FileIO.makeDirectory(directory)
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        let paths = DevCertificatePaths(
            directory: directory, rootCA: base + "root-ca.pem", wwdr: base + "wwdr.pem",
            certificate: base + "pass-cert.pem", key: base + "pass-key.pem", pkcs12: base + "pass.p12")
        let p12 = try CertificateBuilder.pkcs12(
            certificate: chain.leaf, key: chain.leafKey, extras: [chain.wwdr], password: pkcs12Password,
            friendlyName: chain.leaf.commonName ?? "Pass Type ID")
        try FileIO.writeAtomically(chain.leafKey.pkcs8PEM(), to: paths.key, mode: 0o600)
        try FileIO.writeAtomically(p12, to: paths.pkcs12, mode: 0o600)
        try FileIO.writeAtomically(CertificateBuilder.pem(chain.root), to: paths.rootCA, mode: 0o644)
        try FileIO.writeAtomically(CertificateBuilder.pem(chain.wwdr), to: paths.wwdr, mode: 0o644)
        try FileIO.writeAtomically(CertificateBuilder.pem(chain.leaf), to: paths.certificate, mode: 0o644)
        return paths
    }

    struct Chain: Sendable {
        var root: Certificate
        var wwdr: Certificate
        var leaf: Certificate
        var leafKey: PrivateKey
    }

    /// Builds the three certificates in memory.
    static func makeChain(passTypeIdentifier: String, teamIdentifier: String, validDays: Int, nfc: Bool = false)
        throws(SigningError) -> Chain
    {
        let caDays = 3650
        let rootKey = try CertificateBuilder.generateRSAKey()
        let root = try CertificateBuilder.make(
            subject: [("C", "US"), ("O", "PassMint Development CA"), ("CN", "PassMint Development Root CA")],
            key: rootKey, issuer: nil, validDays: caDays,
            extensions: [
                .config(nid: NID_basic_constraints, value: "critical,CA:TRUE"),
                .config(nid: NID_key_usage, value: "critical,keyCertSign,cRLSign"),
                .config(nid: NID_subject_key_identifier, value: "hash"),
            ])
        let wwdrKey = try CertificateBuilder.generateRSAKey()
        let wwdr = try CertificateBuilder.make(
            subject: [
                ("C", "US"), ("O", "PassMint Development CA"), ("OU", "G4"),
                ("CN", "PassMint Development WWDR"),
            ],
            key: wwdrKey, issuer: (root, rootKey), validDays: caDays,
            extensions: [
                .config(nid: NID_basic_constraints, value: "critical,CA:TRUE,pathlen:0"),
                .config(nid: NID_key_usage, value: "critical,digitalSignature,keyCertSign,cRLSign"),
                .config(nid: NID_subject_key_identifier, value: "hash"),
                .config(nid: NID_authority_key_identifier, value: "keyid:always"),
            ])
        let leafKey = try CertificateBuilder.generateRSAKey()
        let leaf = try CertificateBuilder.make(
            subject: [
                ("UID", passTypeIdentifier),
                ("CN", (nfc ? "Pass Type ID with NFC: " : "Pass Type ID: ") + passTypeIdentifier),
                ("OU", teamIdentifier), ("O", "PassMint Development"), ("C", "US"),
            ],
            key: leafKey, issuer: (wwdr, wwdrKey), validDays: validDays,
            extensions: [
                .config(nid: NID_basic_constraints, value: "critical,CA:FALSE"),
                .config(nid: NID_key_usage, value: "digitalSignature"),
                .config(nid: NID_ext_key_usage, value: "clientAuth,\(X509Facts.passEKUOID)"),
                .config(nid: NID_subject_key_identifier, value: "hash"),
                .config(nid: NID_authority_key_identifier, value: "keyid:always"),
                .raw(
                    oid: X509Facts.passTypeExtensionOID, der: DERString.encodeUTF8(passTypeIdentifier),
                    critical: false),
            ])
        return Chain(root: root, wwdr: wwdr, leaf: leaf, leafKey: leafKey)
    }
}
