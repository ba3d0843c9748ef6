internal import COpenSSL

/// What a .p12 file holds: the certificate with its private key, and any extra (CA) certificates.
///
/// Opens Keychain Access and `openssl pkcs12 -export [-legacy]` files alike: the OpenSSL "legacy" and "default"
/// providers are loaded once per process for RC2/3DES.
public struct PKCS12Bundle: Sendable {
    /// The certificate that goes with the key.
    public var certificate: Certificate
    /// The private key.
    public var key: PrivateKey
    /// Other certificates in the file (a WWDR intermediate, a root), in stored order.
    public var extraCertificates: [Certificate]

    /// Reads and decrypts a .p12 file.
    /// - Parameter password: the .p12 password; never printed.
    /// - Throws: `.fileUnreadable`, `.wrongPassword`, `.invalidPKCS12`, `.pkcs12MissingIdentity`, naming `path`.
    public static func load(path: String, password: String) throws(SigningError) -> PKCS12Bundle {
        try parse(FileIO.read(path), password: password, path: path)
    }

    /// Decrypts .p12 bytes; `path` only names the input in errors.
    public static func parse(_ bytes: [UInt8], password: String, path: String = "the .p12 data")
        throws(SigningError) -> PKCS12Bundle
    {
        // RC2/3DES .p12 files (Keychain, `openssl pkcs12 -legacy`) need the legacy provider.
        let legacyLoaded = OpenSSL.legacyProvidersLoaded
        ERR_clear_error()
        let p12: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_PKCS12(nil, &cursor, buffer.count)
        }
        guard let p12 else { throw .invalidPKCS12(path: path, openSSL: OpenSSL.errorText()) }
        defer { PKCS12_free(p12) }

        // Like the openssl CLI, an empty password may mean "no password" (NULL) as well as "".
        let candidates: [String?] = password.isEmpty ? [password, nil] : [password]
        var parsePassword: String? = password
        if PKCS12_mac_present(p12) == 1 {
            guard let match = candidates.first(where: { PKCS12_verify_mac(p12, $0, -1) == 1 }) else {
                let text = OpenSSL.errorText()
                if text.contains("unsupported") {
                    throw .invalidPKCS12(path: path, openSSL: text + (legacyLoaded ? "" : legacyHint))
                }
                throw .wrongPassword(path: path)
            }
            parsePassword = match
        }

        var pkey: OpaquePointer? = nil
        var x509: OpaquePointer? = nil
        var ca: OpaquePointer? = nil
        guard PKCS12_parse(p12, parsePassword, &pkey, &x509, &ca) == 1 else {
            let text = OpenSSL.errorText()
            if text.contains("unsupported") && !legacyLoaded {
                throw .invalidPKCS12(path: path, openSSL: text + legacyHint)
            }
            if text.contains("bad decrypt") { throw .wrongPassword(path: path) }
            throw .invalidPKCS12(path: path, openSSL: text)
        }
        // Take ownership at once so every path frees what PKCS12_parse returned.
        let keyBox = pkey.map { EVPKeyBox(takingOwnershipOf: $0) }
        let certBox = x509.map { X509Box(takingOwnershipOf: $0) }
        var extras: [Certificate] = []
        if let ca {
            for index in 0..<pm_sk_X509_num(ca) {
                guard let item = pm_sk_X509_value(ca, index), X509_up_ref(item) == 1 else { continue }
                extras.append(Certificate(box: X509Box(takingOwnershipOf: item)))
            }
            pm_sk_X509_pop_free(ca)
        }
        guard let keyBox, let certBox else { throw .pkcs12MissingIdentity(path: path) }
        return PKCS12Bundle(
            certificate: Certificate(box: certBox), key: PrivateKey(box: keyBox), extraCertificates: extras)
    }

    private static let legacyHint =
        " — the OpenSSL legacy provider (ossl-modules/legacy.so, package libssl3) is needed for RC2/3DES .p12 files"
}
