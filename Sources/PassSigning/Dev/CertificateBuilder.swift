internal import COpenSSL

/// Builds RSA keys and X.509 certificates for the development chain.
enum CertificateBuilder {
    /// An X.509v3 extension given in OpenSSL config syntax ("critical,CA:TRUE") or as raw DER.
    enum Extension {
        case config(nid: Int32, value: String)
        case raw(oid: String, der: [UInt8], critical: Bool)
    }

    static func generateRSAKey(bits: UInt32 = 2048) throws(SigningError) -> PrivateKey {
        ERR_clear_error()
        guard let pkey = pm_rsa_generate(bits) else {
            throw .generationFailed(step: "generating an RSA-\(bits) key", openSSL: OpenSSL.errorText())
        }
        return PrivateKey(box: EVPKeyBox(takingOwnershipOf: pkey))
    }

    /// A certificate for `key` named `subject` (DER order), signed by `issuer` (or self-signed when nil).
    static func make(
        subject: [(String, String)], key: PrivateKey, issuer: (certificate: Certificate, key: PrivateKey)?,
        validDays: Int, extensions: [Extension]
    ) throws(SigningError) -> Certificate {
        ERR_clear_error()
        guard let x509 = X509_new() else { throw failure("allocating a certificate") }
        let box = X509Box(takingOwnershipOf: x509)  // frees x509 on every error path

        guard X509_set_version(x509, 2) == 1, setRandomSerial(x509), X509_set_pubkey(x509, key.box.pkey) == 1 else {
            throw failure("setting the version, serial and public key")
        }
        try setSubject(subject, on: x509)
        let issuerName = issuer.map { X509_get_subject_name($0.certificate.box.x509) } ?? X509_get_subject_name(x509)
        guard X509_set_issuer_name(x509, issuerName) == 1,
            X509_gmtime_adj(X509_getm_notBefore(x509), -300) != nil,  // 5 minutes of clock skew
            X509_time_adj_ex(X509_getm_notAfter(x509), Int32(validDays), 0, nil) != nil
        else { throw failure("setting the issuer and validity") }

        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer?.certificate.box.x509 ?? x509, x509, nil, nil, 0)
        for item in extensions { try add(item, to: x509, context: &context) }

        let signingKey = issuer?.key ?? key
        guard X509_sign(x509, signingKey.box.pkey, EVP_sha256()) > 0 else { throw failure("signing the certificate") }
        return Certificate(box: box)
    }

    private static func setRandomSerial(_ x509: OpaquePointer) -> Bool {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard RAND_bytes(&bytes, Int32(bytes.count)) == 1 else { return false }
        bytes[0] = (bytes[0] & 0x7F) | 0x10  // positive, 16 bytes long
        guard let bn = BN_bin2bn(bytes, Int32(bytes.count), nil) else { return false }
        defer { BN_free(bn) }
        return BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(x509)) != nil
    }

    private static func setSubject(_ subject: [(String, String)], on x509: OpaquePointer) throws(SigningError) {
        guard let name = X509_NAME_new() else { throw failure("allocating a name") }
        defer { X509_NAME_free(name) }
        for (field, value) in subject {
            guard X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8, value, -1, -1, 0) == 1 else {
                throw failure("adding \(field)=\(value) to the subject")
            }
        }
        guard X509_set_subject_name(x509, name) == 1 else { throw failure("setting the subject") }
    }

    private static func add(
        _ item: Extension, to x509: OpaquePointer, context: inout X509V3_CTX
    ) throws(SigningError) {
        let ext: OpaquePointer?
        switch item {
        case .config(let nid, let value):
            ext = X509V3_EXT_conf_nid(nil, &context, nid, value)
        case .raw(let oid, let der, let critical):
            guard let object = OBJ_txt2obj(oid, 1), let octets = ASN1_OCTET_STRING_new() else {
                throw failure("encoding extension \(oid)")
            }
            defer {
                ASN1_OBJECT_free(object)
                ASN1_OCTET_STRING_free(octets)
            }
            guard ASN1_OCTET_STRING_set(octets, der, Int32(der.count)) == 1 else {
                throw failure("encoding extension \(oid)")
            }
            ext = X509_EXTENSION_create_by_OBJ(nil, object, critical ? 1 : 0, octets)
        }
        guard let ext else { throw failure("building extension \(item)") }
        defer { X509_EXTENSION_free(ext) }
        guard X509_add_ext(x509, ext, -1) == 1 else { throw failure("adding extension \(item)") }
    }

    private static func failure(_ step: String) -> SigningError {
        .generationFailed(step: step, openSSL: OpenSSL.errorText())
    }

    /// A .p12 holding `certificate`, `key` and `extras`, with OpenSSL 3's default (AES-256, PBKDF2) protection.
    static func pkcs12(
        certificate: Certificate, key: PrivateKey, extras: [Certificate], password: String, friendlyName: String
    ) throws(SigningError) -> [UInt8] {
        ERR_clear_error()
        guard let stack = pm_sk_X509_new_null() else { throw failure("allocating a certificate list") }
        defer { pm_sk_X509_free(stack) }  // the stack does not own the certificates
        for extra in extras where pm_sk_X509_push(stack, extra.box.x509) <= 0 {
            throw failure("building the .p12 certificate list")
        }
        guard let p12 = PKCS12_create(password, friendlyName, key.box.pkey, certificate.box.x509, stack, 0, 0, 0, 0, 0)
        else { throw failure("building the .p12") }
        defer { PKCS12_free(p12) }
        var out: UnsafeMutablePointer<UInt8>? = nil
        let length = i2d_PKCS12(p12, &out)
        guard length > 0, let out else { throw failure("encoding the .p12") }
        defer { pm_openssl_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    /// PEM text of a certificate.
    static func pem(_ certificate: Certificate) -> [UInt8] {
        OpenSSL.collectBIO { bio in _ = PEM_write_bio_X509(bio, certificate.box.x509) }
    }
}
