import Foundation
import PassConcurrency

/// When a Google outbox row is tried again: 429, 5xx and no answer back off exponentially (doubling from
/// `initialDelay` up to `maxDelay`, at least Google's `Retry-After`, with jitter); a 401/403 waits long (a
/// person must fix the service account or the console) and is given up after `maxRefusedAttempts`; any other
/// refusal is given up at once (the next version of the pass queues a new row).
package struct GoogleRetryPolicy: Sendable, Equatable {
    package var initialDelay: TimeInterval
    package var refusedDelay: TimeInterval
    package var maxDelay: TimeInterval
    package var jitter: Double
    package var maxTransientAttempts: Int
    package var maxRefusedAttempts: Int

    package init(
        initialDelay: TimeInterval = 1, refusedDelay: TimeInterval = 300, maxDelay: TimeInterval = 3600,
        jitter: Double = 0.2, maxTransientAttempts: Int = 60, maxRefusedAttempts: Int = 12
    ) {
        self.initialDelay = initialDelay
        self.refusedDelay = refusedDelay
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.maxTransientAttempts = maxTransientAttempts
        self.maxRefusedAttempts = maxRefusedAttempts
    }

    /// What to do with a row tried `attempts` times before, now failed with `error`.
    package enum Decision: Sendable, Equatable {
        case retry(after: TimeInterval)
        case giveUp
    }

    /// - Parameter unit: a uniform random number in `0..<1` for the jitter.
    package func decision(for error: GoogleAPIError, attempts: Int, unit: Double = .random(in: 0..<1)) -> Decision {
        let backoff = Backoff(maxDelay: maxDelay, jitter: jitter)
        switch error {
        case .transport, .rateLimited, .server:
            guard attempts + 1 < maxTransientAttempts else { return .giveUp }
            let delay = backoff.delay(base: initialDelay, attempts: attempts, unit: unit)
            return .retry(after: max(delay, TimeInterval(error.retryAfter ?? 0)))
        case .forbidden, .unauthorized, .tokenRefused, .assertionNotSigned:
            guard attempts + 1 < maxRefusedAttempts else { return .giveUp }
            return .retry(after: backoff.jittered(refusedDelay, unit: unit))
        case .notFound, .conflict, .rejected, .badAnswer:
            return .giveUp
        }
    }
}
