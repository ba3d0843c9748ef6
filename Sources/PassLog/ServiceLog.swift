import Foundation

/// The `passmint serve` log on stderr, one line per event, written by every part of the service that runs on its
/// own (the store's change feed, the access log's writer, the job runner, the handlers). Callers never pass tokens
/// or request bodies.
package enum ServiceLog {
    package static func error(_ message: String) {
        FileHandle.standardError.write(Data("passmint serve: \(message)\n".utf8))
    }
}

extension ServiceLog {
    /// The log line for a failure: what failed (`context`), the error in its own words, then `after` (what
    /// happens next). The log is an edge, like the CLI and the HTTP response: the one place outside them where
    /// an error becomes text.
    package static func line(_ context: String, _ error: any Error, after: String = "") -> String {
        "\(context): \(error)" + (after.isEmpty ? "" : "; \(after)")
    }

    /// Logs `line(context, error, after:)`.
    package static func error(_ context: String, _ error: any Error, after: String = "") {
        self.error(line(context, error, after: after))
    }
}

extension ServiceLog {
    /// A push token made safe to log or show: at most 8 characters (never more than half the token) followed by
    /// `…`.
    package static func redacted(pushToken token: String) -> String {
        let prefix = token.prefix(min(8, token.count / 2)).filter { $0.isHexDigit }
        return prefix + "…"
    }
}
