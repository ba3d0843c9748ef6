import Foundation

/// Everything that can go wrong while loading a signing identity, signing or inspecting a signature.
///
/// Each case carries the file it concerns (when there is one) and OpenSSL's own text, and its
/// `description` says what the user should do next. Passwords never appear in any message.
public enum SigningError: Error, CustomStringConvertible, Equatable {

    /// A file could not be read.
    case fileUnreadable(path: String, reason: String)
    /// A file could not be written (or a folder created).
    case fileUnwritable(path: String, reason: String)
    /// The bytes are not a PEM or DER X.509 certificate. `path` is nil for in-memory input.
    case invalidCertificate(path: String?, openSSL: String)
    /// The bytes are not a private key OpenSSL can read.
    case invalidPrivateKey(path: String?, openSSL: String)
    /// The private key is encrypted and no password was given.
    case keyPasswordRequired(path: String?)
    /// The password does not decrypt the private key or the .p12 file.
    case wrongPassword(path: String?)
    /// The .p12 file does not parse (or uses an algorithm no loaded provider offers).
    case invalidPKCS12(path: String, openSSL: String)
    /// The .p12 file holds no certificate and private key pair.
    case pkcs12MissingIdentity(path: String)
    /// No WWDR intermediate: the .p12 holds no CA certificate and no WWDR file was given.
    case missingWWDR(pkcs12Path: String)
    /// The private key does not belong to the certificate.
    case keyMismatch(certificatePath: String, keyPath: String)
    /// The WWDR certificate did not issue the Pass Type ID certificate.
    case wrongIntermediate(wwdrPath: String, certificatePath: String, certificateIssuer: String)
    /// The certificate is not a Pass Type ID certificate (a TLS or other certificate: no pass-type extension).
    case notPassTypeCertificate(path: String, subject: String)
    /// The signing certificate expired: Wallet refuses every pass signed with it.
    case certificateExpired(path: String, notAfter: Date)
    /// The signing certificate is not valid yet.
    case certificateNotYetValid(path: String, notBefore: Date)
    /// OpenSSL failed while building the signature.
    case signingFailed(openSSL: String)
    /// The bytes are not a DER CMS / PKCS#7 structure.
    case invalidSignature(openSSL: String)
    /// Generating development keys or certificates failed.
    case generationFailed(step: String, openSSL: String)
    /// OpenSSL could not compute a SHA-256 digest (it could not allocate its context).
    case digestFailed(openSSL: String)
    /// The key is not an EC P-256 private key, so it cannot sign ES256 (an APNs auth key, `.p8`, is one).
    case notES256Key(path: String?, found: String)

    public var description: String {
        switch self {
        case .fileUnreadable(let path, let reason):
            return "cannot read \(path): \(reason); check the path and its permissions"
        case .fileUnwritable(let path, let reason):
            return "cannot write \(path): \(reason); check that the folder exists and is writable"
        case .invalidCertificate(let path, let text):
            return "\(path ?? "certificate data") is not a PEM or DER X.509 certificate (\(text)); "
                + "pass the Pass Type ID certificate (.pem/.cer) or its .p12 with --p12"
        case .invalidPrivateKey(let path, let text):
            return "\(path ?? "key data") is not a private key OpenSSL can read (\(text)); "
                + "export the key that belongs to the Pass Type ID certificate as PEM"
        case .keyPasswordRequired(let path):
            return "the private key \(path ?? "data") is encrypted; give its passphrase in an environment variable"
        case .wrongPassword(let path):
            return "the password does not open \(path ?? "the key data") (mac verify failure / bad decrypt); "
                + "check the variable named by --password-env"
        case .invalidPKCS12(let path, let text):
            return "\(path) is not a readable PKCS#12 (.p12) file (\(text)); re-export it from Keychain Access "
                + "or with `openssl pkcs12 -export`, or give the certificate, key and WWDR files instead"
        case .pkcs12MissingIdentity(let path):
            return "\(path) holds no certificate with its private key; export the Pass Type ID certificate "
                + "together with its key from Keychain Access"
        case .missingWWDR(let path):
            return "\(path) holds no WWDR intermediate certificate; give Apple's WWDR intermediate (AppleWWDRCAG4.pem) "
                + "(download it from Apple PKI)"
        case .keyMismatch(let certificatePath, let keyPath):
            return "the private key \(keyPath) does not belong to the certificate \(certificatePath); "
                + "use the key that was used to request this Pass Type ID certificate"
        case .wrongIntermediate(let wwdrPath, let certificatePath, let issuer):
            return "\(wwdrPath) did not issue \(certificatePath) (its issuer is \(issuer)); "
                + "pass the WWDR intermediate named by that issuer (OU=G4 means AppleWWDRCAG4)"
        case .notPassTypeCertificate(let path, let subject):
            return "\(path) is not a Pass Type ID certificate (subject \(subject), no Apple pass-type extension); "
                + "use the certificate made for your Pass Type ID in the Apple Developer account"
        case .certificateExpired(let path, let notAfter):
            return
                "the signing certificate \(path) expired on \(DateText.utc(notAfter)); Wallet refuses passes signed with it — "
                + "create a new Pass Type ID certificate and sign with that"
        case .certificateNotYetValid(let path, let notBefore):
            return
                "the signing certificate \(path) is valid only from \(DateText.utc(notBefore)); check the system clock or "
                + "use a certificate that is valid now"
        case .signingFailed(let text):
            return "signing failed (\(text)); check that the key and certificate are intact RSA/EC material"
        case .invalidSignature(let text):
            return "the signature is not a DER PKCS#7/CMS SignedData structure (\(text)); re-sign the pass"
        case .generationFailed(let step, let text):
            return "generating development certificates failed while \(step) (\(text))"
        case .digestFailed(let text):
            return "OpenSSL could not compute a SHA-256 digest (\(text)); check that the machine has memory to spare"
        case .notES256Key(let path, let found):
            return "\(path ?? "key data") is a \(found) key, not an EC P-256 key; an APNs auth key (.p8, downloaded "
                + "from Certificates, Identifiers & Profiles > Keys) is EC P-256"
        }
    }
}
