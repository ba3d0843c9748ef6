import Dispatch
import Foundation
import PassConcurrency
import Synchronization
import PassStore

/// Drains a `PushOutbox` to APNs on its own thread: claim due rows, send them over one HTTP/2 connection,
/// then complete, drop or reschedule each row. A row is only removed after APNs answered, so nothing is lost
/// if the process dies (an unanswered row becomes due again when its lease ends).
package final class Pusher: Sendable {
    /// Tunables of the drain loop.
    package struct Options: Sendable {
        /// Rows claimed per round.
        package var batchSize: Int
        /// How long claimed rows stay leased to this pusher.
        package var lease: TimeInterval
        /// Sleep between empty rounds unless `wake()` is called.
        package var pollInterval: TimeInterval
        /// Back-off and give-up rules.
        package var retryPolicy: PushRetryPolicy
        /// The time rows come due and retries are scheduled by (a test moves a clock by hand instead of waiting).
        package var clock: @Sendable () -> Date
        /// Record each APNs answer as an event of the passes it concerns, keeping this many events per pass;
        /// nil records none.
        package var eventsPerPass: Int? = nil

        /// Creates options (defaults: 1000 rows, 30 s lease, 200 ms poll).
        package init(
            batchSize: Int = 1000, lease: TimeInterval = 30, pollInterval: TimeInterval = 0.2,
            retryPolicy: PushRetryPolicy = PushRetryPolicy(), clock: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.clock = clock
            self.batchSize = batchSize
            self.lease = lease
            self.pollInterval = pollInterval
            self.retryPolicy = retryPolicy
        }
    }

    private let outbox: any PushOutbox
    private let configuration: APNsConfiguration
    private let options: Options
    private let onResult: @Sendable (String) -> Void
    private let onAnswer: @Sendable (PushResult) -> Void
    private let log: @Sendable (String) -> Void
    private let control = PusherControl()

    /// Writes one line to standard error.
    package static let standardErrorLog: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data(("pusher: " + line + "\n").utf8))
    }

    /// Creates a stopped pusher; call `start()`.
    /// - Parameters:
    ///   - outbox: the durable queue to drain.
    ///   - configuration: APNs endpoint and credential (validated here).
    ///   - options: batch size, lease, poll interval, retry policy.
    ///   - onResult: called once per answered push with `delivered`, `unregistered`, `retry` or `failed`.
    ///   - onAnswer: called once per answered push with the whole answer (status, reason).
    ///   - log: receives log lines (push tokens appear only as a short prefix).
    /// - Throws: `PushError` for an invalid configuration.
    package init(
        outbox: any PushOutbox, configuration: APNsConfiguration, options: Options = Options(),
        onResult: @escaping @Sendable (String) -> Void = { _ in },
        onAnswer: @escaping @Sendable (PushResult) -> Void = { _ in },
        log: @escaping @Sendable (String) -> Void = Pusher.standardErrorLog
    ) throws(PushError) {
        try configuration.validate()
        self.outbox = outbox
        self.configuration = configuration
        self.options = options
        self.onResult = onResult
        self.onAnswer = onAnswer
        self.log = log
    }

    deinit { control.stopAndJoin() }

    /// Starts the worker thread (once; a stopped pusher does not restart).
    package func start() {
        guard control.markStarted() else { return }
        let worker = PusherWorker(
            outbox: outbox, configuration: configuration, options: options, onResult: onResult, onAnswer: onAnswer,
            log: log, control: control)
        let control = self.control
        let thread = Thread {
            worker.run()
            control.markFinished()
        }
        thread.name = "passmint-pusher"
        thread.start()
    }

    /// Sends with `credential` from the next round on, over a new connection (the signing identity was renewed:
    /// APNs takes the Pass Type ID certificate as client certificate).
    /// - Throws: `PushError` when the credential is unusable; the current one stays.
    package func replaceCredential(_ credential: APNsConfiguration.Credential) throws(PushError) {
        var replaced = configuration
        replaced.credential = credential
        try replaced.validate()
        control.replaceCredential(credential)
        control.wake()
    }

    /// Runs a round now instead of after the poll interval (call it after queueing pushes).
    package func wake() { control.wake() }

    /// Stops the worker and waits until it has finished its current round (answers are still recorded).
    package func stop() { control.stopAndJoin() }
}

/// The pusher's worker signalling plus the hand-over of a renewed credential to its thread.
final class PusherControl: Sendable {
    /// Start, wake and stop.
    let worker = WorkerControl()
    /// A renewed credential the worker has not switched to yet.
    private let credential = Mutex<APNsConfiguration.Credential?>(nil)

    var isStopping: Bool { worker.isStopping }
    func markStarted() -> Bool { worker.markStarted() }
    func markFinished() { worker.markFinished() }
    func wake() { worker.wake() }
    func waitForWork(_ interval: TimeInterval) { worker.waitForWork(interval) }
    func stopAndJoin() { worker.stopAndJoin() }

    func replaceCredential(_ credential: APNsConfiguration.Credential) {
        self.credential.withLock { $0 = credential }
    }

    /// The credential to switch to, once.
    func takeCredential() -> APNsConfiguration.Credential? {
        credential.withLock { pending in
            defer { pending = nil }
            return pending
        }
    }
}
