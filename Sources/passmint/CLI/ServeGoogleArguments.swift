import Foundation
import PassGoogle
import PassServer

/// `serve --google` and its options: the service account and issuer (as generate's), the Wallet API and token
/// endpoint (Google's unless a test aims them at a stand-in), the root keys for callbacks, the image base and the
/// request rate.
enum ServeGoogleArguments {
    static let google = Flag("google", "keep Google Wallet passes current too (objects, classes, messages, callbacks)")
    static let key = Option<String>(
        "google-key", "FILE", "service-account JSON key (default: $GOOGLE_APPLICATION_CREDENTIALS)")
    static let issuer = Option<String>(
        "google-issuer", "ID", "Google Wallet issuer ID (default: $PASSMINT_GOOGLE_ISSUER_ID)")
    static let rootKeys = Option<String>(
        "google-root-keys", "FILE",
        "Google's callback root keys, the JSON of https://pay.google.com/gp/m/issuer/keys (no callbacks without)")
    static let imageBase = Option<String>(
        "google-image-base", "URL", "public base URL of the images Google fetches (default: --link-base)")
    static let api = Option<String>(
        "google-api", "URL", "Wallet API base (default \(GoogleAPIConfiguration.defaultAPIBase))")
    static let tokenURL = Option<String>(
        "google-token-url", "URL", "OAuth 2 token endpoint (default: the key file's token_uri, Google's)")
    static let ca = Option<String>("google-ca", "FILE", "trust this CA for the Wallet API and token endpoint (tests)")
    static let rate = Option<Double>(
        spec: .value("google-rate", "N", "most Wallet API requests per second (default 20; 0: no pacing)"),
        parse: { text in Double(text).flatMap { $0 >= 0 && $0.isFinite ? $0 : nil } },
        expected: "a number of requests per second (0: no pacing)")

    static let options: [any OptionDeclaration] = [google, key, issuer, rootKeys, imageBase, api, tokenURL, ca, rate]

    /// nil when `--google` is not given; a Google option without it is a usage error.
    static func make(_ args: ParsedArguments) throws(CLIError) -> GoogleServeOptions? {
        guard args[google] else {
            if let option = options.first(where: { $0.spec.long != google.spec.long && args.given($0) }) {
                throw .usage("--\(option.spec.long) needs --google")
            }
            return nil
        }
        for option in [api, tokenURL, imageBase] {
            if let url = args[option], !url.hasPrefix("https://"), !url.hasPrefix("http://") {
                throw .usage("--\(option.spec.long) needs an absolute URL such as https://example.com; got '\(url)'")
            }
        }
        return GoogleServeOptions(
            keyPath: args[key], issuerID: args[issuer],
            api: GoogleAPIConfiguration(
                apiBase: args[api] ?? GoogleAPIConfiguration.defaultAPIBase, tokenURL: args[tokenURL],
                caFile: args[ca], requestsPerSecond: try args[rate] ?? GoogleAPIConfiguration.defaultRequestsPerSecond),
            rootKeysPath: args[rootKeys], imageBase: args[imageBase])
    }
}
