/// Why a push was not delivered: APNs' own answer, or what kept the request from getting one.
package enum PushReason: Sendable, Equatable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// APNs' `reason` from its JSON error body (one of its documented codes, e.g. `BadDeviceToken`).
    case apns(String)
    /// APNs answered this HTTP status with no reason in the body.
    case status(Int)
    /// Nothing was received: libcurl's transfer failed with this message.
    case transport(String)
    /// The sender could not be set up or could not make a provider token.
    case sender(PushError)
    /// The registration's push token is not 32 bytes of hex, so it was never sent.
    case malformedDeviceToken
    /// The pass type identifier cannot be an `apns-topic` header value.
    case invalidTopic
    /// The batch ended before this push was started.
    case notSent

    /// A test or table writes APNs' reason code as a literal.
    package init(stringLiteral code: String) { self = .apns(code) }

    /// APNs' documented reason code, when APNs gave one (or the code Apple uses for what PassMint refused to send).
    package var apnsCode: String? {
        switch self {
        case .apns(let code): return code
        case .malformedDeviceToken: return "BadDeviceToken"
        default: return nil
        }
    }

    /// The words stored with the outbox row and its pass event, and counted in metrics.
    package var description: String {
        switch self {
        case .apns(let code): return code
        case .status(let status): return "HTTP \(status)"
        case .transport(let message): return "transport: \(message)"
        case .sender(let error): return error.description
        case .malformedDeviceToken: return "BadDeviceToken"
        case .invalidTopic: return "invalid apns-topic"
        case .notSent: return "not sent"
        }
    }
}
