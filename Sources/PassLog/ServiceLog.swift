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
    /// Logs `error` in its own words after `context` (what failed): the log is an edge, like the CLI and the
    /// HTTP response, where an error becomes text.
    package static func error(_ context: String, _ error: any Error) {
        self.error("\(context): \(error)")
    }
}
