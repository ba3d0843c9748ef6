internal import COpenSSL
import Foundation

/// Signs manifest bytes with a `SigningIdentity`.
///
/// Nothing is parsed per call: the certificate, WWDR and key were parsed when the identity was loaded.
/// One signer may be used from many threads at once.
public struct PassSigner: Sendable {
    /// The identity every signature is made with.
    public let identity: SigningIdentity
    /// This identity's SignedData as OpenSSL writes it, with the per-signature fields located; nil when it
    /// could not be prepared (every signature then goes through OpenSSL's PKCS#7 code).
    let template: SignatureTemplate?

    /// A signer for `identity`. Makes one signature with OpenSSL to prepare the template.
    public init(identity: SigningIdentity) {
        self.identity = identity
        self.template = SignatureTemplate(identity: identity)
    }

    private static let flags = Int32(PKCS7_DETACHED | PKCS7_BINARY | PKCS7_NOSMIMECAP | PKCS7_PARTIAL)

    /// A detached DER PKCS#7 SignedData over exactly `content`: SHA-256 digest, a signingTime attribute,
    /// the signer and WWDR certificates embedded, no S/MIME capabilities attribute.
    ///
    /// The bytes are exactly what OpenSSL's `PKCS7_sign` writes for the same content and second (PKCS#1 v1.5
    /// signatures are deterministic): OpenSSL writes the structure once per signer, and each call fills in the
    /// content digest, the signing time and the RSA signature (`SignatureTemplate`).
    /// - Throws: `SigningError.signingFailed` with OpenSSL's text.
    public func sign(_ content: [UInt8]) throws(SigningError) -> [UInt8] {
        try sign(content, at: Date())
    }

    /// `sign(_:)` with a given signing time (tests compare both paths at one instant).
    func sign(_ content: [UInt8], at signingTime: Date) throws(SigningError) -> [UInt8] {
        if let template, let bytes = try template.sign(content, at: signingTime) {
            return bytes
        }
        return try signWithOpenSSL(content, at: signingTime)
    }

    /// The signature made entirely by OpenSSL's PKCS#7 code, with `signingTime` (nil: OpenSSL's clock).
    func signWithOpenSSL(_ content: [UInt8], at signingTime: Date?) throws(SigningError) -> [UInt8] {
        try Self.makeWithOpenSSL(content, at: signingTime, identity: identity)
    }

    static func makeWithOpenSSL(_ content: [UInt8], at signingTime: Date?, identity: SigningIdentity)
        throws(SigningError) -> [UInt8]
    {
        ERR_clear_error()
        guard let p7 = PKCS7_sign(nil, nil, nil, nil, Self.flags) else {
            throw .signingFailed(openSSL: OpenSSL.errorText())
        }
        defer { PKCS7_free(p7) }
        guard
            let signer = PKCS7_sign_add_signer(
                p7, identity.certificate.box.x509, identity.key.box.pkey,
                Self.sha256.md, Self.flags),
            PKCS7_add_certificate(p7, identity.wwdr.box.x509) == 1
        else { throw .signingFailed(openSSL: OpenSSL.errorText()) }
        if let signingTime {
            // PKCS7_final adds signingTime only when the signer has none yet.
            guard let time = ASN1_TIME_set(nil, time_t(signingTime.timeIntervalSince1970.rounded(.down))) else {
                throw .signingFailed(openSSL: OpenSSL.errorText())
            }
            guard PKCS7_add_signed_attribute(signer, NID_pkcs9_signingTime, ASN1_STRING_type(time), time) == 1 else {
                ASN1_TIME_free(time)
                throw .signingFailed(openSSL: OpenSSL.errorText())
            }
        }
        let finalized = OpenSSL.withReadBIO(content) { bio in PKCS7_final(p7, bio, Self.flags) }
        guard finalized == 1 else { throw .signingFailed(openSSL: OpenSSL.errorText()) }

        var out: UnsafeMutablePointer<UInt8>? = nil
        let length = i2d_PKCS7(p7, &out)
        guard length > 0, let out else { throw .signingFailed(openSSL: OpenSSL.errorText()) }
        defer { pm_openssl_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    /// SHA-256, fetched once per process (an explicit fetch spares OpenSSL 3 a lookup on every signature).
    static let sha256 = FetchedDigest(name: "SHA256")
}

/// Owns one explicitly fetched `EVP_MD`.
// @unchecked Sendable: a fetched EVP_MD is immutable and reference-counted atomically by OpenSSL.
final class FetchedDigest: @unchecked Sendable {
    let md: OpaquePointer

    init(name: String) {
        guard let md = EVP_MD_fetch(nil, name, nil) else {
            fatalError("OpenSSL has no \(name) digest: \(OpenSSL.errorText())")
        }
        self.md = md
    }

    deinit {
        EVP_MD_free(md)
    }

    /// The digest of `bytes` (any length, empty included).
    func digest(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { raw in
            // EVP_Digest needs a pointer even for 0 bytes.
            let base = raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
            return EVP_Digest(base, raw.count, &digest, &length, md, nil)
        }
        precondition(ok == 1, "EVP_Digest failed: \(OpenSSL.errorText())")
        return Array(digest.prefix(Int(length)))
    }
}
