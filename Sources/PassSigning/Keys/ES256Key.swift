internal import COpenSSL

/// An EC P-256 private key that signs with ES256: ECDSA over SHA-256, the signature in the fixed 64-byte `r‖s`
/// form JSON Web Tokens use (not DER). An APNs auth key (`.p8`) is one; APNs takes provider tokens signed with it.
///
/// Parsed once, usable from several threads; its material never appears in a description or an error.
package struct ES256Key: Sendable, CustomStringConvertible {
    let box: EVPKeyBox

    /// Reads a PEM (PKCS#8, as Apple's `.p8` downloads are) or DER private key file and checks it is EC P-256.
    /// - Throws: `SigningError.fileUnreadable`, `.invalidPrivateKey` or `.notES256Key` naming `path`.
    package static func load(path: String) throws(SigningError) -> ES256Key {
        try ES256Key(bytes: FileIO.read(path), path: path)
    }

    /// Parses PEM or DER key bytes; `path` only names them in errors.
    /// - Throws: `SigningError.invalidPrivateKey` or `.notES256Key`.
    package init(bytes: [UInt8], path: String?) throws(SigningError) {
        let key = try PrivateKey(bytes: bytes, password: nil, path: path)
        guard EVP_PKEY_get_base_id(key.box.pkey) == EVP_PKEY_EC, Self.groupName(key.box.pkey) == "prime256v1" else {
            throw .notES256Key(path: path, found: key.keyDescription)
        }
        box = key.box
    }

    /// Never the key: "EC P-256 key".
    package var description: String { "EC P-256 key" }

    /// The ES256 signature of `message`: 32 bytes of `r` then 32 bytes of `s`, big-endian.
    /// - Throws: `SigningError.signingFailed` with OpenSSL's text.
    package func sign(_ message: [UInt8]) throws(SigningError) -> [UInt8] {
        ERR_clear_error()
        guard let context = EVP_MD_CTX_new() else { throw .signingFailed(openSSL: OpenSSL.errorText()) }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, box.pkey) == 1 else {
            throw .signingFailed(openSSL: OpenSSL.errorText())
        }
        var length = 0
        let sized = message.withUnsafeBufferPointer { EVP_DigestSign(context, nil, &length, $0.baseAddress, $0.count) }
        guard sized == 1, length > 0 else { throw .signingFailed(openSSL: OpenSSL.errorText()) }
        var der = [UInt8](repeating: 0, count: length)
        let signed = message.withUnsafeBufferPointer { input in
            EVP_DigestSign(context, &der, &length, input.baseAddress, input.count)
        }
        guard signed == 1 else { throw .signingFailed(openSSL: OpenSSL.errorText()) }
        return try Self.rawSignature(Array(der.prefix(length)))
    }

    /// The public key as PEM (`BEGIN PUBLIC KEY`): what a server verifies the tokens with.
    package func publicKeyPEM() -> [UInt8] {
        OpenSSL.collectBIO { bio in _ = PEM_write_bio_PUBKEY(bio, box.pkey) }
    }

    /// DER `ECDSA-Sig-Value` → `r‖s`, each left-padded to 32 bytes.
    private static func rawSignature(_ der: [UInt8]) throws(SigningError) -> [UInt8] {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let parsed else { throw .signingFailed(openSSL: OpenSSL.errorText()) }
        defer { ECDSA_SIG_free(parsed) }
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(parsed, &r, &s)
        var out = [UInt8](repeating: 0, count: 64)
        let written = out.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress, let r, let s else { return false }
            return BN_bn2binpad(r, base, 32) == 32 && BN_bn2binpad(s, base + 32, 32) == 32
        }
        guard written else { throw .signingFailed(openSSL: "an ECDSA signature value does not fit 32 bytes") }
        return out
    }

    private static func groupName(_ pkey: OpaquePointer) -> String? {
        var buffer = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(pkey, &buffer, buffer.count, &length) == 1 else {
            ERR_clear_error()
            return nil
        }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
