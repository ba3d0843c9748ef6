import Dispatch
import Foundation
import PassArchive
import Synchronization

/// Ctrl-C (SIGINT) or SIGTERM for a long-running command: the first asks it to stop at its next safe point
/// (`requested` turns true, `wait()` returns). With `secondStopsAtOnce`, another one ends the process at once
/// (the default action); otherwise later ones are ignored while the command stops.
// @unchecked Sendable: `sources` is set once in init and only kept alive; the count is atomic.
final class InterruptRequest: @unchecked Sendable {
    private final class State: Sendable {
        let count = Atomic<Int>(0)
        let first = DispatchSemaphore(value: 0)
    }

    private let state = State()
    private var sources: [DispatchSourceSignal] = []

    init(secondStopsAtOnce: Bool) {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [state] in
                let count = state.count.wrappingAdd(1, ordering: .relaxed).newValue
                if count == 1 {
                    state.first.signal()
                } else if secondStopsAtOnce {
                    TemporaryFiles.removeAll()
                    signal(sig, SIG_DFL)
                    raise(sig)
                }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// True once SIGINT or SIGTERM arrived.
    var requested: Bool { state.count.load(ordering: .relaxed) > 0 }

    /// Blocks until SIGINT or SIGTERM arrives.
    func wait() {
        state.first.wait()
    }
}
