import Foundation

/// The `passmint serve` log on stderr, one line per event, written by every part of the service that runs on its
/// own (the store's change feed, the access log's writer, the job runner, the handlers). Callers never pass tokens
/// or request bodies.
package enum ServiceLog {
    package static func error(_ message: String) {
        FileHandle.standardError.write(Data("passmint serve: \(message)\n".utf8))
    }
}
