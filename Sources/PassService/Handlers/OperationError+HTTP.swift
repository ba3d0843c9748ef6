import PassHTTP
import PassOperations
import PassStore

/// A refused change is the client's mistake (400 naming the field); an unknown pass is 404; a store that cannot
/// be reached is 503 with `Retry-After`; anything else (a template version missing, a template the server cannot
/// load, a store that fails) is the server's fault: 500, logged, never blamed on the client.
extension OperationError: HTTPResponseError {
    package var status: Int {
        switch self {
        case .change: return 400
        case .passNotFound: return 404
        case .update(_, let error): return error.status
        default:
            if case .databaseUnavailable? = storeError { return 503 }
            return 500
        }
    }

    package var response: Response {
        switch status {
        case 503: return HTTPError.databaseUnavailable.response
        case 500:
            switch self {
            case .store, .unopenableStore: return HTTPError.internalError("storage error; see the server log").response
            default: return HTTPError.internalError("the pass's template cannot be loaded; see the server log").response
            }
        default: return HTTPError(status, description).response
        }
    }
}

/// The default validator's refusal of an amount is the client's (400); the admin token's problems never reach a
/// request (the service does not start with them).
extension ServiceError: HTTPResponseError {
    package var status: Int {
        switch self {
        case .invalidAmount: return 400
        case .weakAdminToken, .blankAdminToken: return 500
        }
    }

    package var response: Response {
        status == 400 ? HTTPError(400, description).response : HTTPError.internalError("internal error").response
    }
}

extension HTTPError {
    /// 503 with `Retry-After`: the database cannot be reached (PostgreSQL restarting); Wallet and load balancers
    /// try again, and the pool reconnects once it is back.
    static let databaseUnavailable = HTTPError(
        503, "the database is unavailable; try again shortly",
        headers: [(name: "Retry-After", value: String(HandlerContext.retryAfterSeconds))])
}
