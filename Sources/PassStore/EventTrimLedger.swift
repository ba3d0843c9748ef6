import Synchronization

/// How many events each pass can at most hold, as far as this process wrote them: a pass is trimmed only when it
/// could pass its bound, and then to the bound less a quarter, so a pass written to by every batch is trimmed once
/// per quarter of its bound rather than once per batch. A pass never holds more than its bound.
final class EventTrimLedger: Sendable {
    private struct State {
        /// Serial → an upper bound of its stored events; absent: not known (trimmed at its next write).
        var counts: [String: Int] = [:]
        var since = ContinuousClock.now
    }

    /// Another process writing the same store makes the counts low: they are forgotten this often, so every pass
    /// is trimmed again at its next write.
    static let forgetAfter = Duration.seconds(60)
    /// Passes followed at most (the counts are forgotten when more are written to).
    static let maxPasses = 500_000

    private let state = Mutex(State())

    init() {}

    /// The events a trim leaves of a pass bounded to `keep`: its newest three quarters (all of a bound under 4).
    static func target(keep: Int) -> Int { max(1, keep - keep / 4) }

    /// The serials among `added` (serial → events just written) to trim to `target(keep:)` now: those whose count
    /// is not known or can be above `keep`. Call `trimmed` once they are.
    func toTrim(_ added: [String: Int], keep: Int) -> [String] {
        state.withLock { state -> [String] in
            if ContinuousClock.now - state.since > Self.forgetAfter || state.counts.count > Self.maxPasses {
                state.counts = [:]
                state.since = .now
            }
            var trim: [String] = []
            for (serial, n) in added {
                if let known = state.counts[serial], known + n <= keep {
                    state.counts[serial] = known + n
                } else {
                    trim.append(serial)
                }
            }
            return trim.sorted()
        }
    }

    /// `serials` were trimmed to `target(keep:)` events.
    func trimmed(_ serials: [String], keep: Int) {
        let target = Self.target(keep: keep)
        state.withLock { state in
            for serial in serials { state.counts[serial] = target }
        }
    }
}
