/// RSASSA-PKCS1-v1_5 signatures over SHA-256 (JOSE's `RS256`) of whole messages, for tokens signed with an RSA
/// key: Google Wallet save links and OAuth assertions. Safe to use from many threads at once: each signature
/// takes its own OpenSSL context from a pool (as pass signatures do).
public final class RSASHA256Signer: Sendable {
    private let pool: RSASigningPool

    /// - Parameter key: an RSA private key.
    /// - Throws: `SigningError.invalidPrivateKey` when the key is not RSA (the message names `keyName`).
    public init(key: PrivateKey, keyName: String?) throws(SigningError) {
        guard key.isRSA else {
            throw .invalidPrivateKey(
                path: keyName, openSSL: "an RS256 signature needs an RSA key, this is \(key.keyDescription)")
        }
        pool = RSASigningPool(key: key)
    }

    /// The RS256 signature of `message` (256 bytes for a 2048-bit key).
    /// - Throws: `SigningError.signingFailed` with OpenSSL's text.
    public func sign(_ message: [UInt8]) throws(SigningError) -> [UInt8] {
        try pool.sign(digest: PassSigner.sha256.digest(message))
    }
}
