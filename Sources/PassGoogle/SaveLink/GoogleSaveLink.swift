import PassModel

/// A "Save to Google Wallet" link: `https://pay.google.com/gp/v/save/<JWT>`, the JWT signed RS256 by the service
/// account (`iss` its email, `aud` "google", `typ` "savetowallet", `iat`, `origins`, `payload` with the class and
/// the object). Made offline; Google creates what the payload holds when the holder saves it.
public struct GoogleSaveLink: Sendable, Equatable {
    /// Where save links point.
    public static let prefix = "https://pay.google.com/gp/v/save/"
    /// The longest JWT a link carries: browsers and mail clients cut longer URLs.
    public static let maxJWTLength = 1_800

    /// What the payload holds.
    public enum Content: String, Sendable, Equatable {
        /// The class and the object: Google creates both on save.
        case classAndObject
        /// The object only: its class is already at Google.
        case object
        /// A reference to an object already at Google (`id` and `classId`).
        case objectReference
    }

    public let url: String
    public let jwt: String
    public let content: Content

    /// The link for `pass`, carrying as much as `content` says.
    /// - Parameters:
    ///   - origins: web origins that may show Google's save button (`[]` for plain links).
    ///   - issuedAt: seconds since 1970 (`iat`).
    /// - Throws: `GoogleError.linkNeedsInsert` when the JWT would be longer than `maxJWTLength` (the class, or
    ///   with the class already at Google the object, must be inserted through the API first); `.signing`.
    public static func make(
        _ pass: GooglePass, content: Content, account: GoogleServiceAccount, origins: [String], issuedAt: Int64
    ) throws(GoogleError) -> GoogleSaveLink {
        var payload: [String: JSONValue] = [:]
        switch content {
        case .classAndObject:
            payload[pass.kind.classPayloadKey] = [pass.classJSON]
            payload[pass.kind.objectPayloadKey] = [pass.objectJSON]
        case .object:
            payload[pass.kind.objectPayloadKey] = [pass.objectJSON]
        case .objectReference:
            payload[pass.kind.objectPayloadKey] = [["id": .string(pass.objectID), "classId": .string(pass.classID)]]
        }
        let claims: JSONValue = [
            "iss": .string(account.clientEmail), "aud": "google", "typ": "savetowallet", "iat": .integer(issuedAt),
            "origins": .array(origins.map(JSONValue.string)), "payload": .object(payload),
        ]
        let jwt = try GoogleJWT.sign(claims, with: account)
        guard jwt.utf8.count <= maxJWTLength || content == .objectReference else {
            throw .linkNeedsInsert(
                length: jwt.utf8.count, limit: maxJWTLength, resource: content == .classAndObject ? .class : .object)
        }
        return GoogleSaveLink(url: prefix + jwt, jwt: jwt, content: content)
    }
}
