import Foundation
import PassModel
import PassTemplates
import PassLog
import PassStore
import PassHTTP
import PassOperations

/// Validates an admin change: gets the stored pass (as it is inside the write's transaction) and the change (values
/// to set, amounts to add), returns the complete new record or throws why not. The client is answered by the
/// error's own status (`HTTPResponseError`: a refused field is a 400, a store that cannot be reached a 503); an
/// error that does not conform is the server's fault, a 500.
package typealias RecordValidator = @Sendable (StoredPass, RecordChange) throws -> [String: String]

/// Signs a personalization token: detached PKCS#7 (DER) over the token's UTF-8 bytes with the pass identity.
package typealias TokenSigner = @Sendable ([UInt8]) throws -> [UInt8]

/// What `POST …/personalize` needs from the pipeline: which stored passes Apple's rewards flow may personalize,
/// and the signer of their tokens.
package struct PersonalizationSigning: Sendable {
    /// Whether a stored pass is personalizable: its template has `personalization.json` (and whatever else the
    /// pipeline requires of such a pass). Only these passes ever get a token signed.
    package var isPersonalizable: @Sendable (StoredPass) -> Bool
    package var sign: TokenSigner

    package init(isPersonalizable: @escaping @Sendable (StoredPass) -> Bool, sign: @escaping TokenSigner) {
        self.isPersonalizable = isPersonalizable
        self.sign = sign
    }
}

/// Everything handlers share. Value type; the reference members are thread-safe.
struct HandlerContext: Sendable {
    let store: any PassStore
    let renderer: any PassRenderer
    let cache: RenderCache
    let metrics: Metrics
    let recordValidator: RecordValidator
    /// nil disables `…/personalize`.
    let personalization: PersonalizationSigning?
    /// What callers without credentials may make the service store and do.
    let unauthenticated: UnauthenticatedWriteLimits
    /// Log bytes per client address.
    let logBudget: AddressBudget
    /// Personalize requests per client address.
    let personalizeBudget: AddressBudget
    /// nil disables the admin API.
    let adminToken: String?
    let adminTokenVariable: String
    let onRecordUpdated: @Sendable (StoredPass, Int) -> Void
    /// Runs `POST /admin/v1/updates`; nil when the service has no bulk updates (answered 501).
    var updateJobs: UpdateJobRunner? = nil
    /// Records what devices do with each pass (`passmint trace`); nil when events are off.
    var events: EventRecorder? = nil
    /// Reads the events back for the trace route; nil when the store keeps none.
    var eventStore: (any PassEventStore)? = nil

    /// The stored version of the pass the request names, when its `Authorization: ApplePass <token>` matches the
    /// pass's token (compared in constant time); 401 otherwise, the same for an unknown pass as for a wrong token.
    func authenticatedVersion(_ request: Request, passType: String, serial: String) throws(HTTPError) -> PassVersion {
        let found = try storeCall { try store.passVersion(passType: passType, serial: serial) }
        guard let version = found, let token = authorizationCredentials(request, scheme: "ApplePass"),
            constantTimeEquals(token, version.authenticationToken)
        else { throw .unauthorized() }
        return version
    }

    /// 429 with `Retry-After`: a caller without credentials is over its budget or the store over its cap.
    static func tooMany(_ message: String, retryAfter seconds: Int) -> HTTPError {
        HTTPError(429, message, headers: [(name: "Retry-After", value: String(max(1, seconds)))])
    }

    /// What a 503 asks clients to wait: about how long a PostgreSQL restart or failover takes.
    static let retryAfterSeconds = 5

    /// Runs a store call; a storage failure is the server's fault (500) and is logged without arguments. A
    /// database that cannot be reached (PostgreSQL restarting) is a 503 with `Retry-After`: Wallet and load
    /// balancers try again, and the pool reconnects once it is back.
    func storeCall<T>(_ body: () throws -> T) throws(HTTPError) -> T {
        do {
            return try body()
        } catch StoreError.databaseUnavailable(let server, let message) {
            ServiceLog.error("store: database \(server) unavailable: \(message)")
            throw .databaseUnavailable
        } catch {
            ServiceLog.error("store", error)
            throw .internalError("storage error; see the server log")
        }
    }
}

/// Byte-wise comparison whose time depends only on the expected length, not on where the strings differ.
func constantTimeEquals(_ given: String, _ expected: String) -> Bool {
    var given = given, expected = expected
    return given.withUTF8 { a in
        expected.withUTF8 { b in
            var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
            if a.count != b.count { difference |= 1 }
            for index in 0..<b.count {
                difference |= b[index] ^ (index < a.count ? a[index] : 0)
            }
            return difference == 0
        }
    }
}

/// The credentials of `Authorization: <scheme> <credentials>`, scheme compared case-insensitively.
func authorizationCredentials(_ request: Request, scheme: String) -> String? {
    authorizationCredentials(request.headers, scheme: scheme)
}

/// The credentials of `Authorization: <scheme> <credentials>` among `headers`.
func authorizationCredentials(_ headers: HTTPHeaders, scheme: String) -> String? {
    guard let header = headers["Authorization"] else { return nil }
    let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
    guard parts.count == 2, asciiCaseInsensitiveEquals(String(parts[0]), scheme) else { return nil }
    // HTTP's optional whitespace is SP / HTAB; Foundation's trimmingCharacters took a quarter of a 304's CPU time.
    let bytes = parts[1].utf8
    let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
    guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(parts[1][first...last])
}

/// Parses a JSON object request body with PassMint's own reader (Foundation's JSONDecoder costs more than the
/// rest of a registration); anything malformed is the client's mistake (400).
func decodeObjectBody(_ request: Request, expected: String) throws(HTTPError) -> [String: JSONValue] {
    guard let document = try? JSONReader.parse(request.body, file: "request body"), document.isStrict,
        case .object(let members) = document.value
    else { throw .badRequest("request body must be JSON \(expected)") }
    return members
}

/// Decodes a JSON request body; anything malformed is the client's mistake (400).
func decodeBody<T: Decodable>(_ type: T.Type, _ request: Request, expected: String) throws(HTTPError) -> T {
    do {
        return try JSONDecoder().decode(T.self, from: Data(request.body))
    } catch {
        throw .badRequest("request body must be JSON \(expected)")
    }
}
