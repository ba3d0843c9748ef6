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
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out += [
                alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)],
                alphabet[Int(n & 63)],
            ]
            index += 3
        }
        let rest = bytes.count - index
        if rest == 1 {
            let n = UInt32(bytes[index]) << 16
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)]]
        } else if rest == 2 {
            let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)]]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
