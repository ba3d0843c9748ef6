internal import COpenSSL
import Foundation

/// SHA-256, PassMint's one implementation: in one call (`hex(_:)`: distribution link tokens, template versions) or
/// streamed over input too large to hold (`init()`, `update(_:)`, `finish()`: the identity of a bulk job's CSV
/// file, hashed in chunks). Every OpenSSL return code is checked.
public struct SHA256Digest: ~Copyable {
    static let sha256 = FetchedDigest(name: "SHA256")

    /// Lowercase hex SHA-256 of `bytes` (64 characters).
    public static func hex(_ bytes: [UInt8]) -> String {
        sha256.digest(bytes).lowercaseHex
    }

    private let context: OpaquePointer

    /// Starts a streamed digest.
    /// - Throws: `SigningError.digestFailed` when OpenSSL cannot set one up (out of memory).
    package init() throws(SigningError) {
        guard let context = EVP_MD_CTX_new() else { throw .digestFailed(openSSL: OpenSSL.errorText()) }
        guard EVP_DigestInit_ex(context, Self.sha256.md, nil) == 1 else {
            let text = OpenSSL.errorText()
            EVP_MD_CTX_free(context)
            throw .digestFailed(openSSL: text)
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds `data` to the digest.
    /// - Throws: `SigningError.digestFailed` when OpenSSL refuses.
    package mutating func update(_ data: Data) throws(SigningError) {
        let ok = data.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
        guard ok == 1 else { throw .digestFailed(openSSL: OpenSSL.errorText()) }
    }

    /// The lowercase hex digest of everything added.
    /// - Throws: `SigningError.digestFailed` when OpenSSL refuses.
    package consuming func finish() throws(SigningError) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1 else {
            throw .digestFailed(openSSL: OpenSSL.errorText())
        }
        return Array(digest.prefix(Int(length))).lowercaseHex
    }
}
