import Foundation

/// A Pass Type ID certificate, its private key and the WWDR intermediate, parsed once.
///
/// Load it once per run and share it: `PassSigner` signs with it from any number of threads.
public struct SigningIdentity: Sendable {
    /// The Pass Type ID certificate (the signer).
    public let certificate: Certificate
    /// The Apple WWDR intermediate embedded in every signature.
    public let wwdr: Certificate
    /// The signer's private key.
    let key: PrivateKey

    /// Builds an identity from parsed parts, refusing a key that does not belong to the certificate.
    /// - Throws: `.keyMismatch` (with the given names) or `.wrongIntermediate` when `wwdr` did not issue `certificate`.
    public init(
        certificate: Certificate, key: PrivateKey, wwdr: Certificate,
        certificateName: String = "the certificate", keyName: String = "the private key",
        wwdrName: String = "the WWDR certificate"
    ) throws(SigningError) {
        guard key.matches(certificate) else {
            throw .keyMismatch(certificatePath: certificateName, keyPath: keyName)
        }
        guard certificate.isIssued(by: wwdr) else {
            throw .wrongIntermediate(
                wwdrPath: wwdrName, certificatePath: certificateName,
                certificateIssuer: certificate.issuer)
        }
        self.certificate = certificate
        self.key = key
        self.wwdr = wwdr
    }

    /// Refuses a signing certificate Wallet would refuse for every pass: not a Pass Type ID certificate, expired,
    /// or not valid yet.
    static func checkUsable(_ certificate: Certificate, name: String, now: Date = Date()) throws(SigningError) {
        let looksLikePassType =
            certificate.hasPassTypeExtension || certificate.hasPassEKU
            || (certificate.commonName?.hasPrefix("Pass Type ID") ?? false)
        guard looksLikePassType else { throw .notPassTypeCertificate(path: name, subject: certificate.subject) }
        guard now <= certificate.notAfter else { throw .certificateExpired(path: name, notAfter: certificate.notAfter) }
        guard now >= certificate.notBefore else {
            throw .certificateNotYetValid(path: name, notBefore: certificate.notBefore)
        }
    }

    /// A warning when the signing certificate expires within `days` days of `now` (renew before it does), else nil.
    public func expiryWarning(now: Date = Date(), days: Int = 30) -> String? {
        let left = certificate.notAfter.timeIntervalSince(now)
        guard left >= 0, left < Double(days) * 86_400 else { return nil }
        return "the signing certificate (\(certificate.subject)) expires on \(DateText.utc(certificate.notAfter)), in "
            + "\(Int(left / 86_400)) day(s); passes signed after that will not install — renew it now"
    }

    /// The private key as unencrypted PKCS#8 PEM, for handing to a TLS client (APNs client certificate).
    /// Keep it in memory; never log or write it without mode 0600.
    public func privateKeyPEM() -> [UInt8] { key.pkcs8PEM() }

    /// Loads a PEM/DER certificate, a PEM/DER private key and the WWDR intermediate.
    /// - Parameter keyPassword: only for an encrypted key; never printed.
    /// - Throws: file and parse errors naming the file, `.keyMismatch` naming both files,
    ///   `.wrongIntermediate` when the WWDR file did not issue the certificate.
    public static func load(
        certificatePath: String, keyPath: String, wwdrPath: String, keyPassword: String?
    ) throws(SigningError) -> SigningIdentity {
        let certificate = try Certificate.load(path: certificatePath)
        try checkUsable(certificate, name: certificatePath)
        let key = try PrivateKey.load(path: keyPath, password: keyPassword)
        let wwdr = try Certificate.load(path: wwdrPath)
        return try SigningIdentity(
            certificate: certificate, key: key, wwdr: wwdr,
            certificateName: certificatePath, keyName: keyPath, wwdrName: wwdrPath)
    }

    /// Loads a .p12 (from Keychain Access, `openssl pkcs12 -export`, with or without `-legacy`).
    ///
    /// The WWDR intermediate comes from `wwdrPath` when given, else from the CA certificates inside the .p12
    /// (the one that issued the Pass Type ID certificate is preferred).
    /// - Parameter password: the .p12 password; never printed.
    /// - Throws: `.wrongPassword`, `.invalidPKCS12`, `.pkcs12MissingIdentity`, `.missingWWDR` (pass --wwdr),
    ///   `.keyMismatch`, `.wrongIntermediate`.
    public static func load(pkcs12Path: String, password: String, wwdrPath: String?) throws(SigningError)
        -> SigningIdentity
    {
        let contents = try PKCS12Bundle.load(path: pkcs12Path, password: password)
        try checkUsable(contents.certificate, name: pkcs12Path)
        let wwdr: Certificate
        var wwdrName = wwdrPath ?? pkcs12Path
        if let wwdrPath {
            wwdr = try Certificate.load(path: wwdrPath)
        } else if let issuer = contents.extraCertificates.first(where: { contents.certificate.isIssued(by: $0) }) {
            wwdr = issuer
        } else if let ca = contents.extraCertificates.first(where: { $0.isCertificateAuthority }) {
            wwdr = ca
            wwdrName = "the CA certificate inside \(pkcs12Path)"
        } else {
            throw .missingWWDR(pkcs12Path: pkcs12Path)
        }
        return try SigningIdentity(
            certificate: contents.certificate, key: contents.key, wwdr: wwdr,
            certificateName: pkcs12Path, keyName: "the private key inside \(pkcs12Path)", wwdrName: wwdrName)
    }
}
