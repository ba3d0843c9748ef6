import Foundation
import PassConcurrency

/// What the pusher does with one outbox row after a send.
package enum PushDecision: Sendable, Equatable {
    /// Delete the row (delivered, or given up without touching registrations).
    case complete
    /// Delete the row and every registration of its push token.
    case drop(reason: PushReason)
    /// Send again after `delay` seconds.
    case retry(delay: TimeInterval, reason: PushReason)
    /// Stop trying after `attempts` sends: delete the row but keep the registrations (credential or request
    /// problem).
    case giveUp(reason: PushReason, attempts: Int)

    /// The decision deletes the registrations of the row's push token.
    package var deletesRegistrations: Bool {
        if case .drop = self { return true }
        return false
    }
}

/// Exponential back-off with jitter, by the number of earlier attempts of a row.
package struct PushRetryPolicy: Sendable, Equatable {
    /// First back-off for 429 / 5xx / transport errors (doubles per attempt).
    package var initialDelay: TimeInterval
    /// First back-off for `.failed` answers (403 and other 4xx): long, since a person must fix something.
    package var failedInitialDelay: TimeInterval
    /// Upper bound of every back-off.
    package var maxDelay: TimeInterval
    /// Relative jitter: a delay is scaled by a factor in `1 - jitter ..< 1 + jitter` (then capped).
    package var jitter: Double
    /// Attempts after which a retryable row is given up (about two days at the cap with the defaults).
    package var maxRetryAttempts: Int
    /// Attempts after which a `.failed` row is given up.
    package var maxFailedAttempts: Int

    /// Creates a policy; defaults: 1 s, 2 s, 4 s … capped at 1 h, ±20 % jitter; failed rows 60 s doubling, 5 tries.
    package init(
        initialDelay: TimeInterval = 1, failedInitialDelay: TimeInterval = 60, maxDelay: TimeInterval = 3600,
        jitter: Double = 0.2, maxRetryAttempts: Int = 60, maxFailedAttempts: Int = 5
    ) {
        self.initialDelay = initialDelay
        self.failedInitialDelay = failedInitialDelay
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.maxRetryAttempts = maxRetryAttempts
        self.maxFailedAttempts = maxFailedAttempts
    }

    /// `base * 2^attempts`, capped at `maxDelay`, without jitter.
    package func nominalDelay(base: TimeInterval, attempts: Int) -> TimeInterval {
        Backoff(maxDelay: maxDelay, jitter: jitter).nominalDelay(base: base, attempts: attempts)
    }

    /// The nominal delay scaled by jitter; `unit` is a uniform random number in `0..<1`.
    package func delay(base: TimeInterval, attempts: Int, unit: Double) -> TimeInterval {
        Backoff(maxDelay: maxDelay, jitter: jitter).delay(base: base, attempts: attempts, unit: unit)
    }

    /// The decision for a row that has been tried `result.job.attempts` times before this answer.
    /// - Parameters:
    ///   - result: the APNs answer.
    ///   - unit: a uniform random number in `0..<1` for the jitter.
    package func decision(for result: PushResult, unit: Double = Double.random(in: 0..<1)) -> PushDecision {
        let attempts = result.job.attempts
        switch result.outcome {
        case .delivered:
            return .complete
        case .unregistered(let reason):
            return .drop(reason: reason)
        case .retry(let reason):
            if attempts + 1 >= maxRetryAttempts { return .giveUp(reason: reason, attempts: attempts + 1) }
            return .retry(delay: delay(base: initialDelay, attempts: attempts, unit: unit), reason: reason)
        case .failed(let reason):
            if attempts + 1 >= maxFailedAttempts {
                return .giveUp(reason: reason, attempts: attempts + 1)
            }
            return .retry(delay: delay(base: failedInitialDelay, attempts: attempts, unit: unit), reason: reason)
        }
    }
}
