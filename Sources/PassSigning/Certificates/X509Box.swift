internal import COpenSSL

/// Owns one `X509*`; freed in deinit.
// @unchecked Sendable: the certificate is never mutated after parsing, and OpenSSL 3 read functions
// (including the extension cache, which is filled under OpenSSL's own lock) are thread-safe.
final class X509Box: @unchecked Sendable {
    let x509: OpaquePointer

    /// Takes ownership of `x509` (the caller must not free it).
    init(takingOwnershipOf x509: OpaquePointer) {
        self.x509 = x509
    }

    deinit {
        X509_free(x509)
    }

    /// Parses DER bytes.
    static func parse(der: [UInt8]) -> OpaquePointer? {
        der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            guard let start = buffer.baseAddress, !buffer.isEmpty else { return nil }
            var cursor: UnsafePointer<UInt8>? = start
            guard let x509 = d2i_X509(nil, &cursor, buffer.count) else { return nil }
            // Trailing garbage after the certificate means this was not one DER certificate.
            if let cursor, cursor - start != buffer.count {
                X509_free(x509)
                return nil
            }
            return x509
        }
    }

    /// Parses the first CERTIFICATE block of PEM text.
    static func parse(pem: [UInt8]) -> OpaquePointer? {
        OpenSSL.withReadBIO(pem) { bio in PEM_read_bio_X509(bio, nil, nil, nil) }
    }

    /// Parses every CERTIFICATE block of PEM text (a chain file).
    static func parseAll(pem: [UInt8]) -> [OpaquePointer] {
        OpenSSL.withReadBIO(pem) { bio in
            var result: [OpaquePointer] = []
            while let x509 = PEM_read_bio_X509(bio, nil, nil, nil) { result.append(x509) }
            ERR_clear_error()  // the loop ends on "no start line"
            return result
        }
    }
}
