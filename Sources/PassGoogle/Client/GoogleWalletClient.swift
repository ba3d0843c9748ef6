import Foundation
import PassModel

/// The Google Wallet REST API as PassMint uses it: insert, get and patch classes and objects, and `addMessage`.
/// Every call carries a bearer token from `GoogleAccessTokens`; a 401 fetches a new token and tries once more.
/// Answers are typed: 404, 409, 429, 5xx and the rest each have their `GoogleAPIError`. Not Sendable (it owns a
/// curl handle): one client per thread, sharing one token cache.
package final class GoogleWalletClient {
    package let identity: GoogleIdentity
    package let configuration: GoogleAPIConfiguration
    package let tokens: GoogleAccessTokens
    private let http: GoogleHTTP
    private var lastRequest: Date?
    /// Requests sent (the token endpoint's included), for tests and metrics.
    package private(set) var requestsSent = 0

    package init(identity: GoogleIdentity, configuration: GoogleAPIConfiguration, tokens: GoogleAccessTokens)
        throws(GoogleAPIError)
    {
        self.identity = identity
        self.configuration = configuration
        self.tokens = tokens
        http = try GoogleHTTP(caFile: configuration.caFile, timeout: configuration.timeout)
    }

    /// `POST {segment}`: inserts a class or an object; answers the stored resource.
    package func insert(_ segment: String, _ resource: JSONValue) throws(GoogleAPIError) -> JSONValue {
        try call("POST", segment, label: "\(segment)/\(resource["id"]?.stringValue ?? "?")", body: resource)
    }

    /// `PATCH {segment}/{id}`: changes the members sent (an array is replaced whole).
    package func patch(_ segment: String, id: String, _ members: JSONValue) throws(GoogleAPIError) -> JSONValue {
        try call("PATCH", "\(segment)/\(Self.escape(id))", label: "\(segment)/\(id)", body: members)
    }

    /// `GET {segment}/{id}`.
    package func get(_ segment: String, id: String) throws(GoogleAPIError) -> JSONValue {
        try call("GET", "\(segment)/\(Self.escape(id))", label: "\(segment)/\(id)", body: nil)
    }

    /// `POST {segment}/{id}/addMessage` with `{"message": message}`.
    package func addMessage(_ segment: String, id: String, message: JSONValue) throws(GoogleAPIError) -> JSONValue {
        try call(
            "POST", "\(segment)/\(Self.escape(id))/addMessage", label: "\(segment)/\(id)/addMessage",
            body: ["message": message])
    }

    private func call(_ method: String, _ path: String, label: String, body: JSONValue?) throws(GoogleAPIError)
        -> JSONValue
    {
        var refreshed = false
        while true {
            pace()
            let token = try tokens.token(using: http)
            var headers = ["Authorization: Bearer \(token)", "Accept: application/json"]
            if body != nil { headers.append("Content-Type: application/json; charset=utf-8") }
            let response = try http.send(
                GoogleHTTPRequest(
                    method: method, url: configuration.apiBase + "/" + path, headers: headers,
                    body: body.map { JSONWriter.serialize($0, pretty: false) }))
            requestsSent += 1
            if response.status == 401, !refreshed {
                tokens.invalidate()
                refreshed = true
                continue
            }
            return try Self.answer(response, label: label, identity: identity)
        }
    }

    /// Sleeps so that requests are at least `1 / requestsPerSecond` apart.
    private func pace() {
        defer { lastRequest = Date() }
        guard configuration.requestsPerSecond > 0, let last = lastRequest else { return }
        let wait = 1 / configuration.requestsPerSecond - Date().timeIntervalSince(last)
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
    }

    /// The resource Google answered, or the error its status means.
    static func answer(_ response: GoogleHTTPResponse, label: String, identity: GoogleIdentity) throws(GoogleAPIError)
        -> JSONValue
    {
        let json = (try? JSONReader.parse(response.body, file: label))?.value
        let message = json?["error"]?["message"]?.stringValue ?? "no message"
        switch response.status {
        case 200..<300:
            guard let json, json.objectValue != nil else {
                throw .badAnswer(resource: label, problem: "the body is not a JSON object")
            }
            return json
        case 401: throw .unauthorized(resource: label)
        case 403:
            throw .forbidden(
                resource: label, account: identity.account.clientEmail, issuerID: identity.issuerID, message: message)
        case 404: throw .notFound(resource: label, message: message)
        case 409: throw .conflict(resource: label)
        case 429: throw .rateLimited(resource: label, retryAfter: response.retryAfter)
        case 500..<600: throw .server(resource: label, status: response.status)
        default: throw .rejected(resource: label, status: response.status, message: message)
        }
    }

    /// IDs are ASCII letters, digits, `.`, `_` and `-`; anything else is percent-encoded all the same.
    static func escape(_ id: String) -> String {
        var out = ""
        for byte in id.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if c.isASCII && (c.isLetter || c.isNumber || c == "." || c == "_" || c == "-") {
                out.append(c)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
