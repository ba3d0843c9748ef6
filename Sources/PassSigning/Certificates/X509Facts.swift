internal import COpenSSL
import Foundation

/// The facts read once from an `X509*`, kept as Swift values.
struct X509Facts: Sendable {
    var derBytes: [UInt8]
    var sha256Fingerprint: String
    var subject: DistinguishedName
    var issuer: DistinguishedName
    var passTypeExtensionValue: String?
    var hasPassTypeExtension: Bool
    var extendedKeyUsages: [String]
    var notBefore: Date
    var notAfter: Date
    var serialNumberHex: String
    var publicKeyDescription: String
    var isCA: Bool

    static let passTypeExtensionOID = "1.2.840.113635.100.6.1.16"
    static let passEKUOID = "1.2.840.113635.100.4.14"

    init(_ x509: OpaquePointer) {
        derBytes = Self.der(x509)
        sha256Fingerprint = Self.fingerprint(x509)
        subject = DistinguishedName(X509_get_subject_name(x509))
        issuer = DistinguishedName(X509_get_issuer_name(x509))
        (hasPassTypeExtension, passTypeExtensionValue) = Self.passTypeExtension(x509)
        extendedKeyUsages = Self.extendedKeyUsages(x509)
        notBefore = OpenSSL.date(X509_get0_notBefore(x509)) ?? Date(timeIntervalSince1970: 0)
        notAfter = OpenSSL.date(X509_get0_notAfter(x509)) ?? Date(timeIntervalSince1970: 0)
        serialNumberHex = OpenSSL.bytes(X509_get0_serialNumber(x509)).lowercaseHex.uppercased()
        publicKeyDescription = Self.keyDescription(X509_get0_pubkey(x509))
        isCA = X509_check_ca(x509) != 0
        ERR_clear_error()
    }

    private static func der(_ x509: OpaquePointer) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>? = nil
        let length = i2d_X509(x509, &out)
        guard length > 0, let out else { return [] }
        defer { pm_openssl_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    private static func fingerprint(_ x509: OpaquePointer) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard X509_digest(x509, EVP_sha256(), &digest, &length) == 1 else { return "" }
        return digest.prefix(Int(length)).map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    static func objectText(_ object: OpaquePointer?) -> String {
        guard let object else { return "" }
        var buffer = [CChar](repeating: 0, count: 128)
        let length = OBJ_obj2txt(&buffer, Int32(buffer.count), object, 1)
        guard length > 0 else { return "" }
        return String(decoding: buffer.prefix(Int(min(length, 127))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func passTypeExtension(_ x509: OpaquePointer) -> (Bool, String?) {
        let count = X509_get_ext_count(x509)
        for index in 0..<count {
            guard let ext = X509_get_ext(x509, index),
                objectText(X509_EXTENSION_get_object(ext)) == passTypeExtensionOID
            else { continue }
            return (true, DERString.decode(OpenSSL.bytes(X509_EXTENSION_get_data(ext))))
        }
        return (false, nil)
    }

    private static func extendedKeyUsages(_ x509: OpaquePointer) -> [String] {
        guard let raw = X509_get_ext_d2i(x509, NID_ext_key_usage, nil, nil) else { return [] }
        let stack = OpaquePointer(raw)
        defer { EXTENDED_KEY_USAGE_free(stack) }
        return (0..<pm_sk_ASN1_OBJECT_num(stack)).map { objectText(pm_sk_ASN1_OBJECT_value(stack, $0)) }
    }

    static func keyDescription(_ key: OpaquePointer?) -> String {
        guard let key else { return "unknown key" }
        let bits = EVP_PKEY_get_bits(key)
        switch EVP_PKEY_get_base_id(key) {
        case EVP_PKEY_RSA: return "RSA \(bits)"
        case EVP_PKEY_EC: return "EC \(bits)"
        case EVP_PKEY_ED25519: return "Ed25519"
        default: return "key \(bits) bits"
        }
    }
}

/// Decodes a single DER string value (UTF8String, PrintableString, IA5String, ...); nil for NULL or other types.
enum DERString {
    static func decode(_ der: [UInt8]) -> String? {
        guard der.count >= 2 else { return nil }
        let stringTags: Set<UInt8> = [0x0C, 0x13, 0x16, 0x14, 0x1A]
        guard stringTags.contains(der[0]) else { return nil }
        var length = Int(der[1])
        var offset = 2
        if der[1] & 0x80 != 0 {
            let lengthBytes = Int(der[1] & 0x7F)
            guard lengthBytes <= 2, der.count >= 2 + lengthBytes else { return nil }
            length = der[2..<(2 + lengthBytes)].reduce(0) { $0 << 8 | Int($1) }
            offset = 2 + lengthBytes
        }
        guard der.count >= offset + length else { return nil }
        return String(decoding: der[offset..<(offset + length)], as: UTF8.self)
    }

    /// DER UTF8String encoding of `text`.
    static func encodeUTF8(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        if bytes.count < 0x80 { return [0x0C, UInt8(bytes.count)] + bytes }
        if bytes.count <= 0xFF { return [0x0C, 0x81, UInt8(bytes.count)] + bytes }
        return [0x0C, 0x82, UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes
    }
}
