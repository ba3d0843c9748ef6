import Dispatch
import Foundation
import Synchronization

/// Ctrl-C (SIGINT) or SIGTERM during a long command: the first asks it to stop at the next safe point, a second
/// one ends the process at once (the default action).
// @unchecked Sendable: `sources` is set once in init and only kept alive; the count is atomic.
final class InterruptRequest: @unchecked Sendable {
    private final class Count: Sendable {
        let value = Atomic<Int>(0)
    }

    private let count = Count()
    private var sources: [DispatchSourceSignal] = []

    init() {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [count] in
                if count.value.wrappingAdd(1, ordering: .relaxed).newValue >= 2 {
                    signal(sig, SIG_DFL)
                    raise(sig)
                }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// True once SIGINT or SIGTERM arrived.
    var requested: Bool { count.value.load(ordering: .relaxed) > 0 }
}
