import Foundation

/// Exponential back-off with jitter for a background worker's retries: `base · 2^attempts`, scaled by a factor
/// in `1 - jitter ..< 1 + jitter`, never above `maxDelay`.
package struct Backoff: Sendable, Equatable {
    /// Upper bound of every delay, seconds.
    package var maxDelay: TimeInterval
    /// Relative jitter.
    package var jitter: Double

    package init(maxDelay: TimeInterval, jitter: Double) {
        self.maxDelay = maxDelay
        self.jitter = jitter
    }

    /// `base · 2^attempts`, capped at `maxDelay`, without jitter.
    package func nominalDelay(base: TimeInterval, attempts: Int) -> TimeInterval {
        min(maxDelay, base * pow(2, Double(min(max(attempts, 0), 62))))
    }

    /// The nominal delay scaled by jitter; `unit` is a uniform random number in `0..<1`.
    package func delay(base: TimeInterval, attempts: Int, unit: Double) -> TimeInterval {
        jittered(nominalDelay(base: base, attempts: attempts), unit: unit)
    }

    /// `delay` scaled by jitter and capped; `unit` is a uniform random number in `0..<1`.
    package func jittered(_ delay: TimeInterval, unit: Double) -> TimeInterval {
        min(maxDelay, delay * (1 - jitter + 2 * jitter * min(max(unit, 0), 1)))
    }
}
