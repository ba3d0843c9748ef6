internal import COpenSSL
import Foundation

/// A parsed X.509 certificate.
///
/// An immutable value: the OpenSSL handle lives in a private owner class, and every fact is read once at
/// parse time, so reading properties never touches OpenSSL and the value can be shared across threads.
public struct Certificate: Sendable {
    let box: X509Box
    let facts: X509Facts

    init(box: X509Box) {
        self.box = box
        self.facts = X509Facts(box.x509)
    }

    /// Parses the first certificate of PEM text.
    /// - Throws: `SigningError.invalidCertificate` when no certificate can be read.
    public init(pem: [UInt8]) throws(SigningError) {
        ERR_clear_error()
        guard let x509 = X509Box.parse(pem: pem) else {
            throw .invalidCertificate(path: nil, openSSL: OpenSSL.errorText())
        }
        self.init(box: X509Box(takingOwnershipOf: x509))
    }

    /// Parses one DER-encoded certificate.
    /// - Throws: `SigningError.invalidCertificate` when the bytes are not exactly one certificate.
    public init(der: [UInt8]) throws(SigningError) {
        ERR_clear_error()
        guard let x509 = X509Box.parse(der: der) else {
            throw .invalidCertificate(path: nil, openSSL: OpenSSL.errorText(fallback: "not DER"))
        }
        self.init(box: X509Box(takingOwnershipOf: x509))
    }

    /// Parses PEM or DER bytes, detected from the content.
    init(bytes: [UInt8], path: String?) throws(SigningError) {
        do throws(SigningError) {
            self = try Certificate.looksLikePEM(bytes) ? Certificate(pem: bytes) : Certificate(der: bytes)
        } catch {
            guard case .invalidCertificate(_, let text) = error else { throw error }
            throw .invalidCertificate(path: path, openSSL: text)
        }
    }

    /// Reads a certificate file, PEM (first certificate) or DER (.cer), detected from the content.
    /// - Throws: `SigningError.fileUnreadable` or `.invalidCertificate` naming `path`.
    public static func load(path: String) throws(SigningError) -> Certificate {
        try Certificate(bytes: FileIO.read(path), path: path)
    }

    /// Every certificate in a PEM file (a chain), or the single certificate of a DER file.
    public static func loadAll(path: String) throws(SigningError) -> [Certificate] {
        let bytes = try FileIO.read(path)
        guard looksLikePEM(bytes) else { return [try Certificate(bytes: bytes, path: path)] }
        let all = X509Box.parseAll(pem: bytes).map { Certificate(box: X509Box(takingOwnershipOf: $0)) }
        if all.isEmpty { throw .invalidCertificate(path: path, openSSL: "no CERTIFICATE block found") }
        return all
    }

    static func looksLikePEM(_ bytes: [UInt8]) -> Bool {
        let marker = Array("-----BEGIN".utf8)
        guard bytes.count >= marker.count else { return false }
        // PEM may follow explanatory text (as `openssl x509 -text` writes); look through the bytes.
        for start in 0...(bytes.count - marker.count) where bytes[start] == marker[0] {
            if Array(bytes[start..<(start + marker.count)]) == marker { return true }
        }
        return false
    }

    /// The DER encoding.
    public var derBytes: [UInt8] { facts.derBytes }
    /// The PEM encoding ("-----BEGIN CERTIFICATE-----").
    public var pemBytes: [UInt8] { CertificateBuilder.pem(self) }
    /// SHA-256 of the DER encoding, uppercase hex pairs joined by colons ("AB:CD:...").
    public var sha256Fingerprint: String { facts.sha256Fingerprint }
    /// The subject in one line, in certificate order: "UID=pass.x, CN=Pass Type ID: pass.x, OU=TEAM, O=Org, C=US".
    public var subject: String { facts.subject.oneLine }
    /// The issuer in one line, in certificate order.
    public var issuer: String { facts.issuer.oneLine }
    /// Subject CN.
    public var commonName: String? { facts.subject.first("CN") }
    /// Subject OU (the Team ID in a Pass Type ID certificate).
    public var organizationalUnit: String? { facts.subject.first("OU") }
    /// Subject O.
    public var organization: String? { facts.subject.first("O") }
    /// Subject UID (0.9.2342.19200300.100.1.1).
    public var userID: String? { facts.subject.first("UID") }
    /// Issuer OU: "G4" for Apple's current WWDR intermediate.
    public var issuerOrganizationalUnit: String? { facts.issuer.first("OU") }
    /// Issuer CN.
    public var issuerCommonName: String? { facts.issuer.first("CN") }

    /// The pass type identifier: extension 1.2.840.113635.100.6.1.16 when it holds a string, else UID,
    /// else the CN after "Pass Type ID: " or "Pass Type ID with NFC: ".
    public var passTypeIdentifier: String? {
        if let value = facts.passTypeExtensionValue, !value.isEmpty { return value }
        if let uid = userID, !uid.isEmpty { return uid }
        guard let cn = commonName else { return nil }
        for prefix in ["Pass Type ID with NFC: ", "Pass Type ID: "] where cn.hasPrefix(prefix) {
            return String(cn.dropFirst(prefix.count))
        }
        return nil
    }

    /// The Team ID (subject OU).
    public var teamIdentifier: String? { organizationalUnit }
    /// True for an NFC-enabled ("enhanced") Pass Type ID certificate.
    public var isNFCEnabled: Bool { commonName?.hasPrefix("Pass Type ID with NFC:") ?? false }
    /// True when extension 1.2.840.113635.100.6.1.16 is present.
    public var hasPassTypeExtension: Bool { facts.hasPassTypeExtension }
    /// True when the extended key usage lists 1.2.840.113635.100.4.14.
    public var hasPassEKU: Bool { facts.extendedKeyUsages.contains(X509Facts.passEKUOID) }
    /// Dotted OIDs of the extended key usages.
    public var extendedKeyUsages: [String] { facts.extendedKeyUsages }
    /// True for a CA certificate (basic constraints CA:TRUE or an old-style CA).
    public var isCertificateAuthority: Bool { facts.isCA }
    /// Start of validity.
    public var notBefore: Date { facts.notBefore }
    /// End of validity.
    public var notAfter: Date { facts.notAfter }
    /// The serial number, uppercase hex without separators.
    public var serialNumberHex: String { facts.serialNumberHex }
    /// Key algorithm and size, e.g. "RSA 2048".
    public var publicKeyDescription: String { facts.publicKeyDescription }
    /// True when `date` (default now) lies within notBefore...notAfter.
    public func isValid(at date: Date = Date()) -> Bool { date >= notBefore && date <= notAfter }

    /// True when `issuer` issued this certificate: the names (and key identifiers) match and
    /// this certificate's signature verifies with `issuer`'s public key.
    public func isIssued(by issuer: Certificate) -> Bool {
        defer { ERR_clear_error() }
        guard X509_check_issued(issuer.box.x509, box.x509) == X509_V_OK,
            let key = X509_get0_pubkey(issuer.box.x509)
        else { return false }
        return X509_verify(box.x509, key) == 1
    }
}

extension Certificate: Equatable, Hashable {
    public static func == (lhs: Certificate, rhs: Certificate) -> Bool { lhs.derBytes == rhs.derBytes }
    public func hash(into hasher: inout Hasher) { hasher.combine(derBytes) }
}

extension Certificate: CustomStringConvertible {
    public var description: String { "Certificate(\(subject), serial \(serialNumberHex))" }
}
