import Foundation
import Synchronization
import PassConcurrency

/// Threads for requests that block on a store write, so that the server's network threads never wait for a
/// commit: such a request is suspended in libmicrohttpd, run here, and resumed with its response. Many workers
/// keep many writes in flight, which lets the store's group commit put them in one transaction.
final class BlockingWorkers: Sendable {
    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var head = 0
        var reserved = 0
        var closed = false
    }
    private let state = SleepingLock(State())
    private let available = DispatchSemaphore(value: 0)
    private let idle = DispatchSemaphore(value: 0)
    private let threadCount: Int

    /// Starts `threads` worker threads.
    init(threads: Int) {
        threadCount = max(1, threads)
        for index in 0..<threadCount {
            let thread = Thread { [self] in work() }
            thread.name = "passmint-writer-\(index)"
            thread.start()
        }
    }

    /// Claims a slot for one job; false once `close()` has begun. Call before suspending the connection, then
    /// `run` exactly once.
    func reserve() -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.reserved += 1
            return true
        }
    }

    /// Queues a job for a slot taken with `reserve()`.
    func run(_ job: @escaping @Sendable () -> Void) {
        state.withLock { $0.jobs.append(job) }
        available.signal()
    }

    /// Refuses new jobs, waits until every reserved job has run, then stops the threads.
    func close() {
        let pending = state.withLock { state in
            state.closed = true
            return state.reserved
        }
        if pending > 0 { idle.wait() }
        for _ in 0..<threadCount { available.signal() }
    }

    private func work() {
        while true {
            available.wait()
            let job: (@Sendable () -> Void)? = state.withLock { state in
                guard state.head < state.jobs.count else { return nil }
                let job = state.jobs[state.head]
                state.head += 1
                if state.head > 64 && state.head * 2 > state.jobs.count {
                    state.jobs.removeFirst(state.head)
                    state.head = 0
                }
                return job
            }
            guard let job else {
                if state.withLock({ $0.closed }) { return }
                continue
            }
            job()
            let drained = state.withLock { state in
                state.reserved -= 1
                return state.closed && state.reserved == 0
            }
            if drained { idle.signal() }
        }
    }
}
