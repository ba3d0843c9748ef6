import Foundation
import PassModel
import PassStore

/// Verifies Google Wallet's save and delete callbacks (`ECv2SigningOnly`, as Google's Tink library does): the
/// intermediate signing key must carry a signature by a current root key over
/// LV("GooglePayPasses") ‖ LV("ECv2SigningOnly") ‖ LV(signedKey), and must not have expired; the message must be
/// signed by the intermediate key over LV("GooglePayPasses") ‖ LV(issuerID) ‖ LV("ECv2SigningOnly") ‖
/// LV(signedMessage), must not have expired, and must be about this issuer's object. LV(s) is s's UTF-8 byte count
/// as 4 bytes little-endian, then the bytes. Replays are the store's to refuse (by nonce).
package struct GoogleCallbackVerifier: Sendable {
    package static let protocolVersion = "ECv2SigningOnly"
    package static let senderID = "GooglePayPasses"

    package let issuerID: String
    package let rootKeys: GoogleRootKeys

    package init(issuerID: String, rootKeys: GoogleRootKeys) {
        self.issuerID = issuerID
        self.rootKeys = rootKeys
    }

    /// The event a callback body carries, once every signature and expiry checks out.
    /// - Throws: `GoogleCallbackError` saying which check failed.
    package func verify(_ body: [UInt8], now: Date = Date()) throws(GoogleCallbackError) -> GoogleCallbackEvent {
        guard let root = try? JSONReader.parse(body, file: "callback").value, root.objectValue != nil else {
            throw .malformed(path: "the body")
        }
        let version = try string(root, "protocolVersion")
        guard version == Self.protocolVersion else { throw .wrongProtocol(String(version.prefix(40))) }
        let signature = try base64(try string(root, "signature"), "signature")
        let signedMessage = try string(root, "signedMessage")
        guard let intermediate = root["intermediateSigningKey"], intermediate.objectValue != nil else {
            throw .malformed(path: "intermediateSigningKey")
        }
        let signedKey = try string(intermediate, "signedKey", path: "intermediateSigningKey.signedKey")
        guard let signatures = intermediate["signatures"]?.arrayValue, !signatures.isEmpty, signatures.count <= 16
        else { throw .malformed(path: "intermediateSigningKey.signatures") }

        // 1. The intermediate key is signed by a root key.
        let keyMessage =
            Self.lengthValue(Self.senderID) + Self.lengthValue(Self.protocolVersion)
            + Self.lengthValue(signedKey)
        let roots = rootKeys.current(at: now)
        let signed = signatures.contains { entry in
            guard let text = entry.stringValue, let bytes = Data(base64Encoded: text) else { return false }
            return roots.contains { $0.verifies(signature: Array(bytes), message: keyMessage) }
        }
        guard signed else { throw .intermediateNotSigned }
        // 2. It has not expired.
        guard let keyJSON = try? JSONReader.parse(Array(signedKey.utf8), file: "signedKey").value,
            let keyValue = keyJSON["keyValue"]?.stringValue, let keyDER = Data(base64Encoded: keyValue),
            let intermediateKey = ECSigningKey(der: Array(keyDER))
        else { throw .malformed(path: "intermediateSigningKey.signedKey.keyValue") }
        guard let keyExpiration = Self.milliseconds(keyJSON["keyExpiration"]) else {
            throw .malformed(path: "intermediateSigningKey.signedKey.keyExpiration")
        }
        let nowMillis = Int64(now.timeIntervalSince1970 * 1000)
        guard keyExpiration > nowMillis else { throw .intermediateExpired }
        // 3. The message is signed by the intermediate key, for this issuer.
        let message =
            Self.lengthValue(Self.senderID) + Self.lengthValue(issuerID)
            + Self.lengthValue(Self.protocolVersion) + Self.lengthValue(signedMessage)
        guard intermediateKey.verifies(signature: signature, message: message) else { throw .messageNotSigned }
        // 4. It has not expired, and it is about this issuer's object.
        guard let content = try? JSONReader.parse(Array(signedMessage.utf8), file: "signedMessage").value,
            content.objectValue != nil
        else { throw .malformed(path: "signedMessage") }
        guard let expires = Self.milliseconds(content["expTimeMillis"]) else {
            throw .malformed(path: "signedMessage.expTimeMillis")
        }
        guard expires > nowMillis else { throw .messageExpired }
        let objectID = try string(content, "objectId", path: "signedMessage.objectId")
        let classID = try string(content, "classId", path: "signedMessage.classId")
        let nonce = try string(content, "nonce", path: "signedMessage.nonce")
        guard objectID.hasPrefix(issuerID + "."), classID.hasPrefix(issuerID + "."), objectID.utf8.count <= 512,
            nonce.utf8.count <= 512
        else { throw .otherIssuer(objectID: String(objectID.prefix(100))) }
        let event = try string(content, "eventType", path: "signedMessage.eventType")
        guard let kind = GoogleCallbackEvent.Kind(rawValue: event) else {
            throw .unknownEvent(String(event.prefix(40)))
        }
        return GoogleCallbackEvent(
            nonce: nonce, objectID: objectID, kind: kind,
            expiresAt: Date(timeIntervalSince1970: TimeInterval(expires) / 1000), receivedAt: now)
    }

    /// 4 bytes little-endian of the UTF-8 byte count, then the bytes (Tink's `toLengthValue`).
    static func lengthValue(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        let n = UInt32(bytes.count)
        return [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24 & 0xFF)] + bytes
    }

    /// A time in milliseconds given as a JSON number or a string of digits (Google uses both).
    static func milliseconds(_ value: JSONValue?) -> Int64? {
        switch value {
        case .integer(let n)?: return n
        case .double(let d)? where d.isFinite && abs(d) < 9e15: return Int64(d)
        case .string(let s)?: return Int64(s)
        default: return nil
        }
    }

    private func string(_ value: JSONValue, _ member: String, path: String? = nil) throws(GoogleCallbackError)
        -> String
    {
        guard let text = value[member]?.stringValue else { throw .malformed(path: path ?? member) }
        return text
    }

    private func base64(_ text: String, _ path: String) throws(GoogleCallbackError) -> [UInt8] {
        guard let data = Data(base64Encoded: text) else { throw .malformed(path: path) }
        return Array(data)
    }
}
