import Foundation
import PassModel
import Synchronization

/// OAuth 2 access tokens for the service account (the JWT bearer grant): an RS256 assertion signed with the
/// account's key is exchanged at the token endpoint for a bearer token, which is cached and reused by every call
/// until shortly before it expires. Safe from many threads; the token itself is never logged or described.
package final class GoogleAccessTokens: Sendable {
    /// The scope of the Wallet API.
    package static let scope = "https://www.googleapis.com/auth/wallet_object.issuer"
    /// A token is replaced this long before Google says it expires (clock skew, requests in flight).
    package static let margin: TimeInterval = 60

    private struct Cached {
        var token: String
        var expires: Date
    }

    package let account: GoogleServiceAccount
    /// The token endpoint (the key file's `token_uri`, or a stand-in's).
    package let tokenURL: String
    private let cached = Mutex<Cached?>(nil)

    package init(account: GoogleServiceAccount, tokenURL: String? = nil) {
        self.account = account
        self.tokenURL = tokenURL ?? account.tokenURI
    }

    /// A valid access token: the cached one, or a new one fetched with `http`.
    /// - Throws: `GoogleAPIError.transport` when the endpoint gives no answer (or a 5xx/429, to be retried),
    ///   `.tokenRefused` when it refuses the assertion, `.assertionNotSigned` when the key cannot sign it.
    package func token(using http: GoogleHTTP, now: Date = Date()) throws(GoogleAPIError) -> String {
        if let cached = cached.withLock({ $0 }), cached.expires.timeIntervalSince(now) > Self.margin {
            return cached.token
        }
        let fetched = try fetch(using: http, now: now)
        cached.withLock { $0 = fetched }
        return fetched.token
    }

    /// Forgets the cached token (Google answered 401 with it).
    package func invalidate() { cached.withLock { $0 = nil } }

    private func fetch(using http: GoogleHTTP, now: Date) throws(GoogleAPIError) -> Cached {
        let issued = Int64(now.timeIntervalSince1970)
        let claims: JSONValue = [
            "iss": .string(account.clientEmail), "scope": .string(Self.scope), "aud": .string(tokenURL),
            "iat": .integer(issued), "exp": .integer(issued + 3600),
        ]
        let assertion: String
        do { assertion = try GoogleJWT.sign(claims, with: account, keyID: true) } catch {
            throw .assertionNotSigned(error)
        }
        let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=" + assertion
        let response = try http.send(
            GoogleHTTPRequest(
                method: "POST", url: tokenURL, headers: ["Content-Type: application/x-www-form-urlencoded"],
                body: Array(form.utf8)))
        let answer = (try? JSONReader.parse(response.body, file: "token answer"))?.value
        guard response.status == 200 else {
            if response.status == 429 || response.status >= 500 {
                throw .transport(url: tokenURL, message: "the token endpoint answered HTTP \(response.status)")
            }
            let error = [answer?["error"]?.stringValue, answer?["error_description"]?.stringValue]
                .compactMap { $0 }.joined(separator: ": ")
            throw .tokenRefused(
                url: tokenURL, status: response.status, error: error.isEmpty ? "no reason given" : error)
        }
        guard let token = answer?["access_token"]?.stringValue, !token.isEmpty,
            token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else {
            throw .tokenRefused(url: tokenURL, status: 200, error: "the answer has no access_token")
        }
        let lifetime = answer?["expires_in"]?.doubleValue ?? 3600
        return Cached(token: token, expires: now.addingTimeInterval(min(max(lifetime, 0), 86_400)))
    }
}
