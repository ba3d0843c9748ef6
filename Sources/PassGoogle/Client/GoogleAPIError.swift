/// Why a call to the Google Wallet API (or its OAuth 2 token endpoint) did not do what it asked. Each case names
/// the resource (`loyaltyObject/3388….SERIAL`) and says what to do; the access token and the key never appear.
public enum GoogleAPIError: Error, Sendable, Equatable {
    /// No answer: the connection, TLS or the timeout failed (curl's text).
    case transport(url: String, message: String)
    /// The token endpoint refused the service account's assertion (`invalid_grant` and the like).
    case tokenRefused(url: String, status: Int, error: String)
    /// The assertion for the token endpoint could not be signed with the service account's key.
    indirect case assertionNotSigned(GoogleError)
    /// 401 even with a fresh access token.
    case unauthorized(resource: String)
    /// 403: the service account may not act for the issuer.
    case forbidden(resource: String, account: String, issuerID: String, message: String)
    /// 404: no such class or object.
    case notFound(resource: String, message: String)
    /// 409: an insert of something that exists.
    case conflict(resource: String)
    /// 429: over quota; `retryAfter` seconds when Google said.
    case rateLimited(resource: String, retryAfter: Int?)
    /// 5xx.
    case server(resource: String, status: Int)
    /// 400 and other 4xx: Google refuses the request as it is (its message says why).
    case rejected(resource: String, status: Int, message: String)
    /// A 2xx answer that is not the JSON Google sends.
    case badAnswer(resource: String, problem: String)

    /// Worth sending again later unchanged (429, 5xx, no answer).
    package var isTransient: Bool {
        switch self {
        case .transport, .rateLimited, .server: return true
        default: return false
        }
    }

    /// The `Retry-After` Google gave, if any.
    package var retryAfter: Int? {
        if case .rateLimited(_, let seconds) = self { return seconds }
        return nil
    }
}

extension GoogleAPIError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .transport(let url, let message):
            return "no answer from \(url): \(message); retried with back-off (check the network and the API URL)"
        case .tokenRefused(let url, let status, let error):
            return "the token endpoint \(url) refused the service account's assertion (HTTP \(status), \(error)); "
                + "check that the key file is current (not deleted in Google Cloud, IAM, Service accounts, Keys) and "
                + "that this machine's clock is right"
        case .assertionNotSigned(let error):
            return "the OAuth 2 assertion could not be signed with the service account's key: \(error.description)"
        case .unauthorized(let resource):
            return "\(resource): HTTP 401 with a fresh access token; check that the Google Wallet API is enabled "
                + "in the service account's Google Cloud project (APIs & Services, Library, Google Wallet API)"
        case .forbidden(let resource, let account, let issuerID, let message):
            return "\(resource): HTTP 403 (\(message)): the service account \(account) may not act for issuer "
                + "\(issuerID); in the Google Pay & Wallet Console, Users, invite \(account) with the Developer role, "
                + "and check that \(issuerID) is the issuer ID shown there (not the account's client_id)"
        case .notFound(let resource, let message):
            return "\(resource): HTTP 404 (\(message))"
        case .conflict(let resource):
            return "\(resource): HTTP 409, it exists already"
        case .rateLimited(let resource, let retryAfter):
            return "\(resource): HTTP 429, over Google's quota"
                + (retryAfter.map { "; Google asks to wait \($0) s" } ?? "") + "; retried with back-off"
        case .server(let resource, let status):
            return "\(resource): HTTP \(status) from Google; retried with back-off"
        case .rejected(let resource, let status, let message):
            return "\(resource): HTTP \(status), Google refuses it: \(message)"
        case .badAnswer(let resource, let problem):
            return "\(resource): Google's answer is not what the API sends (\(problem))"
        }
    }
}
