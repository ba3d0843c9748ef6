import Foundation
import PassGoogle
import PassServer

/// `serve --google` and its options: the service account and issuer (as generate's), the Wallet API and token
/// endpoint (Google's unless a test aims them at a stand-in), the root keys for callbacks, the image base and the
/// request rate.
enum ServeGoogleArguments {
    static let options: [OptionSpec] = [
        .flag("google", "keep Google Wallet passes current too (objects, classes, messages, callbacks)"),
        .value("google-key", "FILE", "service-account JSON key (default: $GOOGLE_APPLICATION_CREDENTIALS)"),
        .value("google-issuer", "ID", "Google Wallet issuer ID (default: $PASSMINT_GOOGLE_ISSUER_ID)"),
        .value(
            "google-root-keys", "FILE",
            "Google's callback root keys, the JSON of https://pay.google.com/gp/m/issuer/keys (no callbacks without)"),
        .value("google-image-base", "URL", "public base URL of the images Google fetches (default: --link-base)"),
        .value("google-api", "URL", "Wallet API base (default \(GoogleAPIConfiguration.defaultAPIBase))"),
        .value("google-token-url", "URL", "OAuth 2 token endpoint (default: the key file's token_uri, Google's)"),
        .value("google-ca", "FILE", "trust this CA for the Wallet API and token endpoint (tests)"),
        .value("google-rate", "N", "most Wallet API requests per second (default 20; 0: no pacing)"),
    ]

    /// nil when `--google` is not given; a Google option without it is a usage error.
    static func make(_ args: ParsedArguments) throws(CLIError) -> GoogleServeOptions? {
        guard args.flag("google") else {
            if let option = options.map(\.long).first(where: { $0 != "google" && args.value($0) != nil }) {
                throw .usage("--\(option) needs --google")
            }
            return nil
        }
        for name in ["google-api", "google-token-url", "google-image-base"] {
            if let url = args.value(name), !url.hasPrefix("https://"), !url.hasPrefix("http://") {
                throw .usage("--\(name) needs an absolute URL such as https://example.com; got '\(url)'")
            }
        }
        var rate = GoogleAPIConfiguration.defaultRequestsPerSecond
        if let text = args.value("google-rate") {
            guard let value = Double(text), value >= 0, value.isFinite else {
                throw .usage("--google-rate needs a number of requests per second (0: no pacing), not '\(text)'")
            }
            rate = value
        }
        return GoogleServeOptions(
            keyPath: args.value("google-key"), issuerID: args.value("google-issuer"),
            api: GoogleAPIConfiguration(
                apiBase: args.value("google-api") ?? GoogleAPIConfiguration.defaultAPIBase,
                tokenURL: args.value("google-token-url"), caFile: args.value("google-ca"), requestsPerSecond: rate),
            rootKeysPath: args.value("google-root-keys"), imageBase: args.value("google-image-base"))
    }
}
