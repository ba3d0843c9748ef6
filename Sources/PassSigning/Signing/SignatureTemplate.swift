internal import COpenSSL
import Foundation

/// One signer's detached PKCS#7 SignedData as OpenSSL writes it, with the three places located that differ
/// from one signature to the next: the messageDigest attribute (SHA-256 of the content), the signingTime
/// attribute (a 13-character UTCTime until 2049) and the RSA signature (PKCS#1 v1.5 over SHA-256 of the signed
/// attributes, re-tagged as a SET). Everything else (version, algorithms, both certificates, issuer and serial,
/// the other attributes and every length) is fixed for a signer, so filling in those three gives the same bytes
/// `PKCS7_sign` writes, without building and encoding the structure for every pass.
final class SignatureTemplate: Sendable {
    private let bytes: [UInt8]
    private let digestOffset: Int
    private let timeOffset: Int
    /// The signed attributes, from their `[0]` tag to their end.
    private let attributes: Range<Int>
    private let signatureOffset: Int
    /// Per-thread RSA contexts over copies of the identity's key.
    private let rsa: RSASigningPool

    /// Makes one signature with OpenSSL over a probe at a known time and locates the fields; nil when the
    /// structure is not the expected one (every signature then goes through OpenSSL).
    init?(identity: SigningIdentity) {
        let probe = Array("PassMint signature template probe".utf8)
        let time = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14 22:13:20 UTC
        guard let made = try? PassSigner.makeWithOpenSSL(probe, at: time, identity: identity) else { return nil }
        let digest = PassSigner.sha256.digest(probe)
        let utc = Self.utcTime(time)!
        let signatureLength = Int(EVP_PKEY_get_size(identity.key.box.pkey))
        guard let digestAt = Self.find(digest, in: made), let timeAt = Self.find([0x17, 0x0D] + utc, in: made),
            signatureLength > 0, made.count > signatureLength + 4,
            let attributes = Self.signedAttributes(in: made, containing: [digestAt, timeAt + 2])
        else { return nil }
        let signatureAt = made.count - signatureLength
        // The signature is the last element: an OCTET STRING of the key's size, right after the signed
        // attributes and the signature algorithm.
        let header: [UInt8] =
            signatureLength < 0x80
            ? [0x04, UInt8(signatureLength)]
            : signatureLength < 0x100
                ? [0x04, 0x81, UInt8(signatureLength)]
                : [0x04, 0x82, UInt8(signatureLength >> 8), UInt8(signatureLength & 0xFF)]
        guard made[(signatureAt - header.count)..<signatureAt].elementsEqual(header),
            attributes.upperBound < signatureAt
        else { return nil }
        self.bytes = made
        self.digestOffset = digestAt
        self.timeOffset = timeAt + 2
        self.attributes = attributes
        self.signatureOffset = signatureAt
        self.rsa = RSASigningPool(key: identity.key)
    }

    /// The signature over `content` at `signingTime`, or nil when the template does not apply (a signing time
    /// from 2050 on is a GeneralizedTime of another length).
    func sign(_ content: [UInt8], at signingTime: Date) throws(SigningError) -> [UInt8]? {
        guard let utc = Self.utcTime(signingTime) else { return nil }
        let digest = PassSigner.sha256.digest(content)
        var out = bytes
        out.replaceSubrange(digestOffset..<(digestOffset + digest.count), with: digest)
        out.replaceSubrange(timeOffset..<(timeOffset + 13), with: utc)
        var signed = Array(out[attributes])
        signed[0] = 0x31  // [0] IMPLICIT in SignerInfo, a SET OF when signed (RFC 2315 §9.3)
        let signature = try rsa.sign(digest: PassSigner.sha256.digest(signed))
        guard signature.count == out.count - signatureOffset else { return nil }
        out.replaceSubrange(signatureOffset..<out.count, with: signature)
        return out
    }

    /// `YYMMDDHHMMSSZ` in UTC, as DER's UTCTime writes it; nil outside 1950-2049.
    static func utcTime(_ date: Date) -> [UInt8]? {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return nil }
        let year = Int(parts.tm_year) + 1900
        guard (1950...2049).contains(year) else { return nil }
        var text: [UInt8] = []
        text.reserveCapacity(13)
        for field in [
            year % 100, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min),
            Int(parts.tm_sec),
        ] {
            text.append(UInt8(ascii: "0") + UInt8(field / 10))
            text.append(UInt8(ascii: "0") + UInt8(field % 10))
        }
        text.append(UInt8(ascii: "Z"))
        return text
    }

    /// The one occurrence of `needle` in `haystack`; nil when absent or ambiguous.
    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        var found: Int?
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) {
                guard found == nil else { return nil }
                found = start
            }
        }
        return found
    }

    /// The innermost `[0]` constructed element (tag 0xA0) that contains every offset in `offsets`.
    private static func signedAttributes(in der: [UInt8], containing offsets: [Int]) -> Range<Int>? {
        guard let first = offsets.min(), let last = offsets.max() else { return nil }
        var start = first - 1
        while start >= 0 {
            if der[start] == 0xA0, let end = elementEnd(der, at: start), end > last { return start..<end }
            start -= 1
        }
        return nil
    }

    /// The end of the DER element whose tag is at `start` (definite lengths only).
    private static func elementEnd(_ der: [UInt8], at start: Int) -> Int? {
        guard start + 1 < der.count else { return nil }
        let first = Int(der[start + 1])
        if first < 0x80 { return start + 2 + first }
        let count = first & 0x7F
        guard count >= 1, count <= 3, start + 2 + count <= der.count else { return nil }
        var length = 0
        for byte in der[(start + 2)..<(start + 2 + count)] { length = length << 8 | Int(byte) }
        let end = start + 2 + count + length
        return end <= der.count ? end : nil
    }
}
