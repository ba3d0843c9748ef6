import Foundation
import PassSigning

/// An APNs auth key (`.p8`, ES256) with its key ID and the team it belongs to: what a provider token is made of.
/// Its description names the key ID and team only, never the key.
package struct APNsTokenKey: Sendable, CustomStringConvertible {
    /// The 10-character key ID Apple shows beside the key (the token's `kid`).
    package let keyID: String
    /// The 10-character team ID the key belongs to (the token's `iss`); it covers that team's pass type IDs only.
    package let teamID: String
    let key: ES256Key

    /// - Throws: `PushError.invalidTokenKey` when the key ID or team ID is not 10 letters and digits.
    package init(key: ES256Key, keyID: String, teamID: String) throws(PushError) {
        guard Self.isAppleIdentifier(keyID) else { throw .invalidTokenKey(field: "key ID", value: keyID) }
        guard Self.isAppleIdentifier(teamID) else { throw .invalidTokenKey(field: "team ID", value: teamID) }
        self.key = key
        self.keyID = keyID
        self.teamID = teamID
    }

    package var description: String { "APNs auth key \(keyID) of team \(teamID)" }

    /// Apple's key and team IDs: 10 uppercase letters and digits.
    static func isAppleIdentifier(_ text: String) -> Bool {
        text.utf8.count == 10 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }
    }

    /// A signed provider token (JWT): header `{"alg":"ES256","kid":…}`, claims `{"iss":team,"iat":seconds}`.
    /// - Throws: `PushError.tokenSigning` when OpenSSL cannot sign.
    func providerToken(issuedAt: Int64) throws(PushError) -> String {
        let header = Self.base64URL(Array(#"{"alg":"ES256","kid":"\#(keyID)"}"#.utf8))
        let claims = Self.base64URL(Array(#"{"iss":"\#(teamID)","iat":\#(issuedAt)}"#.utf8))
        let input = header + "." + claims
        do {
            return input + "." + Self.base64URL(try key.sign(Array(input.utf8)))
        } catch {
            throw .tokenSigning(keyID: keyID, reason: error.description)
        }
    }

    /// RFC 7515 base64url without padding.
    static func base64URL(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }
}
