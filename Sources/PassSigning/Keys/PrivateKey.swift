internal import COpenSSL

/// Owns one `EVP_PKEY*`; freed in deinit.
// @unchecked Sendable: the key is never mutated after loading, and OpenSSL 3 allows concurrent signing
// with one EVP_PKEY (each operation gets its own EVP_PKEY_CTX; RSA blinding is per thread).
final class EVPKeyBox: @unchecked Sendable {
    let pkey: OpaquePointer

    /// Takes ownership of `pkey` (the caller must not free it).
    init(takingOwnershipOf pkey: OpaquePointer) {
        self.pkey = pkey
    }

    deinit {
        EVP_PKEY_free(pkey)
    }
}

/// A private key, parsed once and usable from several threads at the same time.
public struct PrivateKey: Sendable {
    let box: EVPKeyBox

    init(box: EVPKeyBox) {
        self.box = box
    }

    /// Reads a private key file: PEM (PKCS#8, PKCS#1/SEC1, encrypted or not) or DER (PKCS#8).
    /// - Parameter password: needed only for an encrypted key; never printed.
    /// - Throws: `.fileUnreadable`, `.keyPasswordRequired`, `.wrongPassword` or `.invalidPrivateKey` naming `path`.
    public static func load(path: String, password: String?) throws(SigningError) -> PrivateKey {
        try PrivateKey(bytes: FileIO.read(path), password: password, path: path)
    }

    /// Parses a PEM private key.
    /// - Throws: `.keyPasswordRequired`, `.wrongPassword` or `.invalidPrivateKey`.
    public init(pem: [UInt8], password: String?) throws(SigningError) {
        try self.init(bytes: pem, password: password, path: nil)
    }

    init(bytes: [UInt8], password: String?, path: String?) throws(SigningError) {
        ERR_clear_error()
        let isPEM = Certificate.looksLikePEM(bytes)
        let parsed = Self.withPasswordPointer(password) { userData in
            isPEM ? Self.parsePEM(bytes, userData) : Self.parseDER(bytes, userData)
        }
        if let parsed {
            self.init(box: EVPKeyBox(takingOwnershipOf: parsed))
            return
        }
        let text = OpenSSL.errorText()
        if Self.isEncrypted(bytes, isPEM: isPEM) {
            throw password == nil ? .keyPasswordRequired(path: path) : .wrongPassword(path: path)
        }
        throw .invalidPrivateKey(path: path, openSSL: text)
    }

    /// True when this key is the private half of `certificate`'s public key.
    public func matches(_ certificate: Certificate) -> Bool {
        defer { ERR_clear_error() }
        guard let publicKey = X509_get0_pubkey(certificate.box.x509) else { return false }
        return EVP_PKEY_eq(box.pkey, publicKey) == 1
    }

    /// True for an RSA key.
    public var isRSA: Bool { EVP_PKEY_get_base_id(box.pkey) == EVP_PKEY_RSA }

    /// Key algorithm and size, e.g. "RSA 2048".
    public var keyDescription: String { X509Facts.keyDescription(box.pkey) }

    /// Unencrypted PKCS#8 PEM ("BEGIN PRIVATE KEY").
    func pkcs8PEM() -> [UInt8] {
        OpenSSL.collectBIO { bio in _ = PEM_write_bio_PrivateKey(bio, box.pkey, nil, nil, 0, nil, nil) }
    }

    // MARK: - Parsing

    /// A PEM password callback that never prompts: it copies the C string in `userData`, or fails when nil.
    private static let passwordCallback:
        @convention(c) (
            UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?
        ) -> Int32 = { buffer, size, _, userData in
            guard let buffer, let userData else { return -1 }
            let password = userData.assumingMemoryBound(to: CChar.self)
            let length = Int32(strlen(password))
            guard length <= size else { return -1 }
            memcpy(buffer, password, Int(length))
            return length
        }

    private static func withPasswordPointer<R>(_ password: String?, _ body: (UnsafeMutableRawPointer?) -> R) -> R {
        guard let password else { return body(nil) }
        var bytes = Array(password.utf8CString)
        defer {
            // Do not leave the password in freed memory.
            for index in bytes.indices { bytes[index] = 0 }
        }
        return bytes.withUnsafeMutableBytes { body($0.baseAddress) }
    }

    private static func parsePEM(_ bytes: [UInt8], _ userData: UnsafeMutableRawPointer?) -> OpaquePointer? {
        OpenSSL.withReadBIO(bytes) { bio in PEM_read_bio_PrivateKey(bio, nil, passwordCallback, userData) }
    }

    private static func parseDER(_ bytes: [UInt8], _ userData: UnsafeMutableRawPointer?) -> OpaquePointer? {
        let plain: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_AutoPrivateKey(nil, &cursor, buffer.count)
        }
        if let plain { return plain }
        ERR_clear_error()
        return OpenSSL.withReadBIO(bytes) { bio in d2i_PKCS8PrivateKey_bio(bio, nil, passwordCallback, userData) }
    }

    private static func isEncrypted(_ bytes: [UInt8], isPEM: Bool) -> Bool {
        if isPEM {
            let text = String(decoding: bytes, as: UTF8.self)
            return text.contains("BEGIN ENCRYPTED PRIVATE KEY") || text.contains("Proc-Type: 4,ENCRYPTED")
        }
        return bytes.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            guard let sig = d2i_X509_SIG(nil, &cursor, buffer.count) else { return false }
            X509_SIG_free(sig)
            return true
        }
    }
}
