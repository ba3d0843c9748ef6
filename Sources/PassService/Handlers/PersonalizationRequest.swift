import PassModel

/// A rewards sign-up as Wallet posts it (wallet-spec §6; Apple's `PersonalizationDictionary`), checked before any
/// pass is looked up, so what it is told does not depend on the serial.
///
/// The token is signed with the Pass Type ID key, exactly as a pass's manifest is, so the service signs only a
/// token of the shape Wallet sends: 16 to 1024 characters of the base64, base64url and hex alphabets (and `.`),
/// never anything a JSON reader accepts. A manifest (a JSON object) or any other document can therefore never be
/// signed through this endpoint. Apple documents the token only as a string the server signs and returns.
struct PersonalizationRequest {
    static let tokenLength = 16...1024
    /// The `requiredPersonalizationInfo` keys Apple documents; other keys are not stored.
    static let infoKeys: Set<String> = [
        "fullName", "givenName", "familyName", "emailAddress", "postalCode", "ISOCountryCode", "phoneNumber",
    ]
    /// The longest info value kept, in UTF-8 bytes.
    static let maxInfoValueBytes = 256
    static let expected = #"{"personalizationToken": "…", "requiredPersonalizationInfo": {"fullName": "…", …}}"#

    let token: String
    let info: [String: String]

    init(_ request: Request) throws(HTTPError) {
        let members = try decodeObjectBody(request, expected: Self.expected)
        guard case .string(let token)? = members["personalizationToken"] else {
            throw .badRequest("personalizationToken must be a string; the body must be JSON \(Self.expected)")
        }
        try Self.check(token: token)
        var info: [String: String] = [:]
        switch members["requiredPersonalizationInfo"] {
        case nil, .null?: break
        case .object(let fields)?:
            for (key, value) in fields where Self.infoKeys.contains(key) {
                guard case .string(let text) = value else {
                    throw .badRequest("requiredPersonalizationInfo.\(key) must be a string")
                }
                guard text.utf8.count <= Self.maxInfoValueBytes else {
                    throw .badRequest(
                        "requiredPersonalizationInfo.\(key) is longer than \(Self.maxInfoValueBytes) bytes")
                }
                guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                    throw .badRequest("requiredPersonalizationInfo.\(key) holds a control character")
                }
                info[key] = text
            }
        case _?:
            throw .badRequest("requiredPersonalizationInfo must be an object of strings")
        }
        self.token = token
        self.info = info
    }

    /// Refuses a token that is not of Wallet's shape (length, alphabet) or that a JSON reader accepts.
    static func check(token: String) throws(HTTPError) {
        let bytes = Array(token.utf8)
        guard tokenLength.contains(bytes.count) else {
            throw .badRequest(
                "personalizationToken must be \(tokenLength.lowerBound) to \(tokenLength.upperBound) characters; "
                    + "this service signs only tokens of the shape Wallet sends")
        }
        guard bytes.allSatisfy(isTokenByte) else {
            throw .badRequest(
                "personalizationToken may hold only A-Z a-z 0-9 + / = - _ . (the shape of Wallet's tokens); this "
                    + "service signs nothing else")
        }
        guard (try? JSONReader.parse(bytes, file: "personalizationToken")) == nil else {
            throw .badRequest("personalizationToken reads as JSON; this service signs only Wallet's tokens")
        }
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "-"), UInt8(ascii: "_"),
            UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }
}
