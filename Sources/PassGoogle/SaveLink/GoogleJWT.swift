import PassModel
import PassSigning

/// Compact JWS tokens signed RS256 with a service account's key: Google Wallet save links and OAuth 2 assertions.
public enum GoogleJWT {
    /// `header.claims.signature`, each part base64url without padding. The header names RS256 and, with `keyID`,
    /// the key file's `private_key_id` as `kid` (OAuth assertions carry it; save links leave it out, as Google's
    /// converter does, since every character counts against a link's length).
    /// - Throws: `GoogleError.signing` when OpenSSL cannot sign.
    public static func sign(_ claims: JSONValue, with account: GoogleServiceAccount, keyID: Bool = false)
        throws(GoogleError) -> String
    {
        var header: [String: JSONValue] = ["alg": "RS256", "typ": "JWT"]
        if keyID, let kid = account.privateKeyID { header["kid"] = .string(kid) }
        var input = base64URL(JSONWriter.serialize(.object(header), pretty: false))
        input += "."
        input += base64URL(JSONWriter.serialize(claims, pretty: false))
        let signature: [UInt8]
        do { signature = try account.signer.sign(Array(input.utf8)) } catch { throw .signing(error) }
        return input + "." + base64URL(signature)
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// RFC 4648 §5 base64url, no padding.
    public static func base64URL(_ bytes: [UInt8]) -> String {
        let full = bytes.count / 3
        let rest = bytes.count - full * 3
        let count = full * 4 + (rest == 0 ? 0 : rest + 1)
        // Written in place: a link's JWT is encoded once per member, so no per-group temporary arrays.
        return String(unsafeUninitializedCapacity: count) { out in
            bytes.withUnsafeBufferPointer { input in
                alphabet.withUnsafeBufferPointer { table in
                    var o = 0
                    var i = 0
                    for _ in 0..<full {
                        let n = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
                        out[o] = table[Int(n >> 18 & 63)]
                        out[o + 1] = table[Int(n >> 12 & 63)]
                        out[o + 2] = table[Int(n >> 6 & 63)]
                        out[o + 3] = table[Int(n & 63)]
                        o += 4
                        i += 3
                    }
                    if rest > 0 {
                        var n = UInt32(input[i]) << 16
                        if rest == 2 { n |= UInt32(input[i + 1]) << 8 }
                        out[o] = table[Int(n >> 18 & 63)]
                        out[o + 1] = table[Int(n >> 12 & 63)]
                        if rest == 2 { out[o + 2] = table[Int(n >> 6 & 63)] }
                    }
                }
            }
            return count
        }
    }
}
