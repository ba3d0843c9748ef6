/// Why a save or delete callback was refused. Every case but `rootKeys` is the caller's fault (4xx): a forged,
/// expired, replayed or malformed callback; `rootKeys` is the service's configuration.
package enum GoogleCallbackError: Error, Sendable, Equatable {
    /// The root keys file cannot be used.
    case rootKeys(file: String, problem: RootKeysProblem)
    /// The body is not the JSON Google sends; `path` names what is missing or wrong.
    case malformed(path: String)
    /// `protocolVersion` is not ECv2SigningOnly.
    case wrongProtocol(String)
    /// No signature of the intermediate key verifies under a current root key.
    case intermediateNotSigned
    /// The intermediate key's `keyExpiration` has passed.
    case intermediateExpired
    /// The message's signature does not verify under the intermediate key.
    case messageNotSigned
    /// The message's `expTimeMillis` has passed.
    case messageExpired
    /// The class or object is not this issuer's.
    case otherIssuer(objectID: String)
    /// `eventType` is neither `save` nor `del`.
    case unknownEvent(String)
}

/// What is wrong with a root keys file.
package enum RootKeysProblem: Sendable, Equatable, CustomStringConvertible {
    case unreadable
    case tooLarge(limit: Int)
    case notKeysJSON
    case badKey(index: Int)
    case noKeys

    package var description: String {
        switch self {
        case .unreadable: return "it cannot be opened or read"
        case .tooLarge(let limit): return "it is larger than \(limit) bytes"
        case .notKeysJSON: return "it is not JSON of the form {\"keys\": [...]}"
        case .badKey(let index): return "keys[\(index)].keyValue is not a base64 EC P-256 public key"
        case .noKeys: return "it holds no key of protocolVersion ECv2SigningOnly"
        }
    }
}

extension GoogleCallbackError: CustomStringConvertible {
    package var description: String {
        switch self {
        case .rootKeys(let file, let problem):
            return "Google's callback root keys \(file): \(problem); save the JSON that "
                + "https://pay.google.com/gp/m/issuer/keys serves into that file"
        case .malformed(let path): return "not a Google Wallet callback: \(path) is missing or of the wrong type"
        case .wrongProtocol(let version): return "protocolVersion \(version) is not ECv2SigningOnly"
        case .intermediateNotSigned: return "the intermediate signing key is not signed by a current Google root key"
        case .intermediateExpired: return "the intermediate signing key has expired"
        case .messageNotSigned: return "the message's signature does not verify under the intermediate signing key"
        case .messageExpired: return "the message has expired (expTimeMillis is past)"
        case .otherIssuer(let objectID): return "object \(objectID) is not this issuer's"
        case .unknownEvent(let event): return "eventType \(event) is neither save nor del"
        }
    }
}
