import Dispatch
import Foundation
import PassConcurrency
import PassStore
import Synchronization

/// Drains the Google outbox on its own thread, as the pusher drains the push outbox: claim due rows (leased, so
/// several instances share them), bring each object or class up to date at Google, and only then delete the row.
/// A row whose process died comes back when its lease ends, marked in doubt: the worker looks at the object
/// before it writes again, so what already reached Google is not sent twice.
package final class GoogleWorker: Sendable {
    /// Tunables of the drain loop.
    package struct Options: Sendable {
        package var batchSize: Int
        /// How long claimed rows stay leased to this worker (a round of `batchSize` rows must fit in it).
        package var lease: TimeInterval
        package var pollInterval: TimeInterval
        package var retryPolicy: GoogleRetryPolicy
        /// Notifying messages per pass within `notifyWindow` (Google's limit: 3 per 24 hours).
        package var notifyLimit: Int
        package var notifyWindow: TimeInterval
        package var clock: @Sendable () -> Date

        package init(
            batchSize: Int = 100, lease: TimeInterval = 60, pollInterval: TimeInterval = 0.2,
            retryPolicy: GoogleRetryPolicy = GoogleRetryPolicy(), notifyLimit: Int = 3,
            notifyWindow: TimeInterval = 86_400, clock: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.batchSize = batchSize
            self.lease = lease
            self.pollInterval = pollInterval
            self.retryPolicy = retryPolicy
            self.notifyLimit = notifyLimit
            self.notifyWindow = notifyWindow
            self.clock = clock
        }
    }

    private let drain: GoogleDrain
    private let control = WorkerControl()

    /// Writes one line to standard error.
    package static let standardErrorLog: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data(("google: " + line + "\n").utf8))
    }

    /// Creates a stopped worker; call `start()`.
    /// - Parameters:
    ///   - onResult: called once per finished row with `patched`, `inserted`, `notified`, `silenced`, `class`,
    ///     `retry` or `failed`.
    ///   - log: receives log lines (never a token or a key).
    package init(
        store: any PassStore & GoogleWalletStore, source: any GoogleResourceSource, identity: GoogleIdentity,
        configuration: GoogleAPIConfiguration, options: Options = Options(),
        onResult: @escaping @Sendable (String) -> Void = { _ in },
        log: @escaping @Sendable (String) -> Void = GoogleWorker.standardErrorLog
    ) {
        drain = GoogleDrain(
            store: store, source: source, identity: identity, configuration: configuration,
            tokens: GoogleAccessTokens(account: identity.account, tokenURL: configuration.tokenURL), options: options,
            onResult: onResult, log: log)
    }

    deinit { control.stopAndJoin() }

    /// Starts the worker thread (once).
    package func start() {
        guard control.markStarted() else { return }
        let drain = self.drain
        let control = self.control
        let thread = Thread {
            drain.run(control)
            control.markFinished()
        }
        thread.name = "passmint-google"
        thread.start()
    }

    /// Runs a round now instead of after the poll interval.
    package func wake() { control.wake() }

    /// Stops the worker after its current row.
    package func stop() { control.stopAndJoin() }
}
