internal import COpenSSL
import Foundation

/// Owner of one EC P-256 public key (an OpenSSL `EVP_PKEY`) read from DER SubjectPublicKeyInfo, as Google gives
/// its callback signing keys; deinit frees it. Verifies ECDSA-SHA256 signatures in DER, as Google sends them.
final class ECSigningKey: Sendable {
    // Sendable: the key is never changed after init, and OpenSSL allows concurrent verifies with one EVP_PKEY.
    nonisolated(unsafe) private let key: OpaquePointer

    /// Nil when `der` is not an EC P-256 public key.
    init?(der: [UInt8]) {
        guard !der.isEmpty, der.count <= 1024 else { return nil }
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_PUBKEY(nil, &cursor, buffer.count)
        }
        guard let parsed else {
            ERR_clear_error()
            return nil
        }
        guard EVP_PKEY_get_base_id(parsed) == EVP_PKEY_EC, EVP_PKEY_get_bits(parsed) == 256 else {
            EVP_PKEY_free(parsed)
            return nil
        }
        key = parsed
    }

    deinit { EVP_PKEY_free(key) }

    /// Whether `signature` (DER ECDSA) signs `message` (SHA-256) under this key.
    func verifies(signature: [UInt8], message: [UInt8]) -> Bool {
        guard !signature.isEmpty, signature.count <= 256, let context = EVP_MD_CTX_new() else { return false }
        defer {
            EVP_MD_CTX_free(context)
            ERR_clear_error()
        }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        return signature.withUnsafeBufferPointer { sig in
            message.withUnsafeBufferPointer { data in
                EVP_DigestVerify(context, sig.baseAddress, sig.count, data.baseAddress, data.count) == 1
            }
        }
    }
}
