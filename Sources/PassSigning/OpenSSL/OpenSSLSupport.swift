internal import COpenSSL
import PassModel
import Foundation

/// Small helpers shared by the OpenSSL wrappers. Raw pointers never leave the closures.
enum OpenSSL {
    /// Drains this thread's OpenSSL error queue into one line of text (reason strings joined by "; ").
    static func errorText(fallback: String = "unknown OpenSSL error") -> String {
        var parts: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !parts.contains(text) { parts.append(text) }
        }
        return parts.isEmpty ? fallback : parts.joined(separator: "; ")
    }

    /// Runs `body` with a read-only memory BIO over `bytes`; the BIO is freed afterwards.
    static func withReadBIO<R, E: Error>(
        _ bytes: [UInt8], _ body: (OpaquePointer) throws(E) -> R
    ) throws(E) -> R {
        let result: Result<R, E> = bytes.withUnsafeBytes { raw in
            // An empty array may have no base address; BIO_new_mem_buf needs a valid pointer.
            let base = raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
            guard let bio = BIO_new_mem_buf(base, Int32(raw.count)) else {
                fatalError("BIO_new_mem_buf failed: out of memory")
            }
            defer { BIO_free(bio) }
            do throws(E) { return .success(try body(bio)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Runs `body` with a fresh writable memory BIO and returns what was written to it.
    static func collectBIO<E: Error>(_ body: (OpaquePointer) throws(E) -> Void) throws(E) -> [UInt8] {
        guard let bio = BIO_new(BIO_s_mem()) else { fatalError("BIO_new failed: out of memory") }
        defer { BIO_free(bio) }
        try body(bio)
        var data: UnsafeMutablePointer<CChar>? = nil
        let length = pm_BIO_get_mem_data(bio, &data)
        guard length > 0, let data else { return [] }
        return data.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// Converts an ASN1_TIME (UTCTime or GeneralizedTime) to a Date.
    static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
        guard let time else { return nil }
        var value = tm()
        guard ASN1_TIME_to_tm(time, &value) == 1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&value)))
    }

    /// Loads the "default" and "legacy" providers once per process so RC2/3DES .p12 files open.
    /// Returns false when the legacy module is not installed (modern .p12 files still open).
    static let legacyProvidersLoaded: Bool = {
        // Loading any provider switches off the implicit default one, so load "default" explicitly first.
        let defaultProvider = OSSL_PROVIDER_load(nil, "default")
        let legacyProvider = OSSL_PROVIDER_load(nil, "legacy")
        ERR_clear_error()
        return defaultProvider != nil && legacyProvider != nil
    }()

    /// Text of an ASN1_STRING (any string type) as UTF-8.
    static func string(_ asn1: UnsafePointer<ASN1_STRING>?) -> String? {
        guard let asn1 else { return nil }
        var out: UnsafeMutablePointer<UInt8>? = nil
        let length = ASN1_STRING_to_UTF8(&out, asn1)
        guard length >= 0, let out else { return nil }
        defer { pm_openssl_free(out) }
        return String(decoding: UnsafeBufferPointer(start: out, count: Int(length)), as: UTF8.self)
    }

    /// Raw bytes of an ASN1_STRING.
    static func bytes(_ asn1: UnsafePointer<ASN1_STRING>?) -> [UInt8] {
        guard let asn1, let data = ASN1_STRING_get0_data(asn1) else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(asn1))))
    }
}

extension Array where Element == UInt8 {
    /// Lowercase hex, no separators.
    var lowercaseHex: String { Hex.lowercase(self) }
}
