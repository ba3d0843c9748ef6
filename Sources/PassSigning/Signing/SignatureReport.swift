internal import COpenSSL
import Foundation

/// What can be learned offline from a detached CMS / PKCS#7 signature and the content it signs.
///
/// Reads both signer forms: issuer and serial (SignedData v1, what Apple and `PassSigner` write) and subject key
/// identifier (v3). No chain check is made here: compare `signer` and `embeddedCertificates` yourself.
public struct SignatureReport: Sendable {
    /// True when the signature verifies cryptographically over the content (signer certificate not chain-checked).
    public var digestValid: Bool
    /// OpenSSL's text when `digestValid` is false.
    public var verificationError: String?
    /// The signingTime signed attribute, when present.
    public var signingTime: Date?
    /// The signer's certificate, matched from the embedded certificates.
    public var signer: Certificate?
    /// Every certificate embedded in the signature, in stored order.
    public var embeddedCertificates: [Certificate]
    /// The signer's digest algorithm, lowercase ("sha1", "sha256").
    public var digestAlgorithm: String
    /// How many SignerInfos the signature holds (Wallet expects exactly one).
    public var signerCount: Int
    /// True when the content is detached (not carried inside the signature).
    public var isDetached: Bool

    /// Parses `signature` (DER) and checks it against `content`.
    /// - Throws: `SigningError.invalidSignature` only when the bytes do not parse as CMS.
    public static func inspect(signature: [UInt8], content: [UInt8]) throws(SigningError) -> SignatureReport {
        ERR_clear_error()
        let parsed: OpaquePointer? = OpenSSL.withReadBIO(signature) { bio in d2i_CMS_bio(bio, nil) }
        guard let cms = parsed else { throw .invalidSignature(openSSL: OpenSSL.errorText()) }
        defer { CMS_ContentInfo_free(cms) }
        guard OBJ_obj2nid(CMS_get0_type(cms)) == NID_pkcs7_signed else {
            throw .invalidSignature(openSSL: "content type is not SignedData")
        }

        var report = SignatureReport(
            digestValid: false, verificationError: nil, signingTime: nil, signer: nil,
            embeddedCertificates: embeddedCertificates(cms), digestAlgorithm: "", signerCount: 0,
            isDetached: CMS_is_detached(cms) == 1)

        if let infos = CMS_get0_SignerInfos(cms), pm_sk_CMS_SignerInfo_num(infos) > 0 {
            report.signerCount = Int(pm_sk_CMS_SignerInfo_num(infos))
            let info = pm_sk_CMS_SignerInfo_value(infos, 0)
            report.signer = report.embeddedCertificates.first { CMS_SignerInfo_cert_cmp(info, $0.box.x509) == 0 }
            report.digestAlgorithm = digestName(info)
            report.signingTime = signingTime(info)
        }
        ERR_clear_error()

        let flags = UInt32(CMS_NO_SIGNER_CERT_VERIFY | CMS_BINARY)
        let verified = OpenSSL.withReadBIO(content) { bio in CMS_verify(cms, nil, nil, bio, nil, flags) }
        report.digestValid = verified == 1
        report.verificationError = verified == 1 ? nil : OpenSSL.errorText(fallback: "signature does not verify")
        return report
    }

    private static func embeddedCertificates(_ cms: OpaquePointer) -> [Certificate] {
        guard let stack = CMS_get1_certs(cms) else { return [] }
        defer { pm_sk_X509_pop_free(stack) }
        var result: [Certificate] = []
        for index in 0..<pm_sk_X509_num(stack) {
            guard let x509 = pm_sk_X509_value(stack, index), X509_up_ref(x509) == 1 else { continue }
            result.append(Certificate(box: X509Box(takingOwnershipOf: x509)))
        }
        return result
    }

    private static func digestName(_ info: OpaquePointer?) -> String {
        var algorithm: UnsafeMutablePointer<X509_ALGOR>? = nil
        CMS_SignerInfo_get0_algs(info, nil, nil, &algorithm, nil)
        guard let algorithm else { return "" }
        var object: OpaquePointer? = nil
        X509_ALGOR_get0(&object, nil, nil, algorithm)
        let nid = OBJ_obj2nid(object)
        guard nid != NID_undef, let name = OBJ_nid2sn(nid) else { return X509Facts.objectText(object) }
        return String(cString: name).lowercased()
    }

    private static func signingTime(_ info: OpaquePointer?) -> Date? {
        let index = CMS_signed_get_attr_by_NID(info, NID_pkcs9_signingTime, -1)
        guard index >= 0, let attribute = CMS_signed_get_attr(info, index) else { return nil }
        for type in [V_ASN1_UTCTIME, V_ASN1_GENERALIZEDTIME] {
            if let raw = X509_ATTRIBUTE_get0_data(attribute, 0, type, nil) {
                return OpenSSL.date(raw.assumingMemoryBound(to: ASN1_TIME.self))
            }
        }
        return nil
    }
}
