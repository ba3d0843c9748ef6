import Dispatch
import Synchronization

/// Start / wake / stop signalling between a background worker (the APNs pusher, the Google outbox worker) and its
/// thread: the worker sleeps up to its poll interval unless woken, and `stopAndJoin` waits for its current round.
package final class WorkerControl: Sendable {
    private struct State {
        var started = false
        var stopping = false
        var woken = false
    }

    private let state = Mutex(State())
    private let wakeSignal = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    package init() {}

    /// True once a stop was asked for.
    package var isStopping: Bool { state.withLock { $0.stopping } }

    /// True the first time, when the worker may start (false after a stop).
    package func markStarted() -> Bool {
        state.withLock { state in
            guard !state.started, !state.stopping else { return false }
            state.started = true
            return true
        }
    }

    /// Called by the worker's thread as its last step.
    package func markFinished() { finished.signal() }

    /// Ends the current wait at once (one signal however many callers).
    package func wake() {
        let signal = state.withLock { state -> Bool in
            defer { state.woken = true }
            return !state.woken
        }
        if signal { wakeSignal.signal() }
    }

    /// Sleeps up to `interval` seconds unless woken or stopping.
    package func waitForWork(_ interval: Double) {
        let skip = state.withLock { state -> Bool in
            defer { state.woken = false }
            return state.woken || state.stopping
        }
        if !skip { _ = wakeSignal.wait(timeout: .now() + interval) }
        state.withLock { $0.woken = false }
    }

    /// Asks the worker to stop and waits for it (no-op when never started or already stopped).
    package func stopAndJoin() {
        let join = state.withLock { state -> Bool in
            defer { state.stopping = true }
            return state.started && !state.stopping
        }
        guard join else { return }
        wakeSignal.signal()
        finished.wait()
    }
}
