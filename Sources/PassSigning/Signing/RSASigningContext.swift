internal import COpenSSL
import Synchronization

/// Owns one `EVP_PKEY_CTX*`, set up once for PKCS#1 v1.5 signatures of SHA-256 digests, over its own copy of
/// the key. Used by one thread at a time (`RSASigningPool` hands it out).
///
/// Its own key copy matters on many cores: threads sharing one RSA key share its blinding values behind a lock
/// and bounce its cache lines (see `Benchmarks/NOTES.md`).
// @unchecked Sendable: an EVP_PKEY_CTX must not be used by two threads at once; the pool gives each context to
// one caller at a time, and the mutex orders its hand-over between threads.
final class RSASigningContext: @unchecked Sendable {
    private let key: EVPKeyBox
    private let context: OpaquePointer

    init(key: PrivateKey) throws(SigningError) {
        guard let copy = EVP_PKEY_dup(key.box.pkey) else { throw .signingFailed(openSSL: OpenSSL.errorText()) }
        let box = EVPKeyBox(takingOwnershipOf: copy)
        guard let context = EVP_PKEY_CTX_new(box.pkey, nil) else { throw .signingFailed(openSSL: OpenSSL.errorText()) }
        guard EVP_PKEY_sign_init(context) == 1, EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) == 1,
            EVP_PKEY_CTX_set_signature_md(context, PassSigner.sha256.md) == 1
        else {
            EVP_PKEY_CTX_free(context)
            throw .signingFailed(openSSL: OpenSSL.errorText())
        }
        self.key = box
        self.context = context
    }

    deinit {
        EVP_PKEY_CTX_free(context)
    }

    /// The PKCS#1 v1.5 signature of a SHA-256 digest (OpenSSL encodes the DigestInfo).
    func sign(digest: [UInt8]) throws(SigningError) -> [UInt8] {
        var length = 0
        guard EVP_PKEY_sign(context, nil, &length, digest, digest.count) == 1 else {
            throw .signingFailed(openSSL: OpenSSL.errorText())
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_PKEY_sign(context, &signature, &length, digest, digest.count) == 1 else {
            throw .signingFailed(openSSL: OpenSSL.errorText())
        }
        return length == signature.count ? signature : Array(signature.prefix(length))
    }
}

/// Signing contexts for one key, one per thread signing at the same moment: a signature takes an idle context
/// (or makes one) and returns it afterwards, so at most as many exist as threads ever signed together.
final class RSASigningPool: Sendable {
    private let key: PrivateKey
    /// Idle contexts; one in use is held only by the caller that took it out.
    private let idle = Mutex<[RSASigningContext]>([])

    init(key: PrivateKey) {
        self.key = key
    }

    /// The PKCS#1 v1.5 signature of a SHA-256 digest.
    func sign(digest: [UInt8]) throws(SigningError) -> [UInt8] {
        let context: RSASigningContext
        if let reused = idle.withLock({ $0.popLast() }) {
            context = reused
        } else {
            context = try RSASigningContext(key: key)
        }
        defer { idle.withLock { $0.append(context) } }
        return try context.sign(digest: digest)
    }
}
