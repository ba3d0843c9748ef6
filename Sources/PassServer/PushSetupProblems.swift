import PassMint
import PassPush
import PassSigning

/// Why the APNs auth key given to `serve` cannot be used.
package enum APNsKeyProblem: Sendable {
    /// No readable file at the path.
    case unreadable
    /// The file holds no EC P-256 private key.
    case notES256(SigningError)
    /// The key ID or team ID is not Apple's 10 characters.
    case invalid(PushError)
}

/// Why a push certificate of another pass type (`--apns-cert-dir`) cannot be used.
package enum PushIdentityProblem: Sendable {
    /// Its files cannot be loaded as a signing identity.
    case load(PassMintError)
    /// The certificate names no pass type identifier.
    case noPassType
    /// Another certificate already pushes for this pass type.
    case secondForPassType(String)
}
