import Foundation

/// Where the Wallet API and its token endpoint are, and how to reach them. The defaults are Google's; tests aim
/// both at a local stand-in.
package struct GoogleAPIConfiguration: Sendable {
    /// Google's Wallet API base.
    package static let defaultAPIBase = "https://walletobjects.googleapis.com/walletobjects/v1"
    /// Google's documented rate limit for the Wallet API (requests per second).
    package static let defaultRequestsPerSecond = 20.0

    /// The API base, without a trailing `/` (`…/walletobjects/v1`).
    package var apiBase: String
    /// The OAuth 2 token endpoint; nil: the key file's `token_uri` (Google's).
    package var tokenURL: String?
    /// Trust this CA instead of the system store (a stand-in's).
    package var caFile: String?
    /// The most seconds one request may take.
    package var timeout: TimeInterval
    /// Requests sent per second at most, by one worker (Google answers 429 beyond its quota).
    package var requestsPerSecond: Double

    package init(
        apiBase: String = GoogleAPIConfiguration.defaultAPIBase, tokenURL: String? = nil, caFile: String? = nil,
        timeout: TimeInterval = 30, requestsPerSecond: Double = GoogleAPIConfiguration.defaultRequestsPerSecond
    ) {
        var base = apiBase
        while base.hasSuffix("/") { base.removeLast() }
        self.apiBase = base
        self.tokenURL = tokenURL
        self.caFile = caFile
        self.timeout = timeout
        self.requestsPerSecond = requestsPerSecond
    }
}
