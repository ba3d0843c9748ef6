import Foundation
import Synchronization

/// The per-address connection cap and the request deadlines, kept across libmicrohttpd's threads: connections
/// are counted per address when they open and close; a sweeper thread cuts (shutdown(2)) each connection whose
/// deadline has passed, which libmicrohttpd then sees as a client that went away.
package final class ConnectionGuard: Sendable {
    private struct State {
        var perAddress: [ClientAddressKey: Int] = [:]
        var open: [ObjectIdentifier: MHDConnectionState] = [:]
        var stopped = false
    }

    let limits: ConnectionLimits
    private let state = Mutex(State())
    private let refused: @Sendable (ConnectionRefusal) -> Void
    private let wake = DispatchSemaphore(value: 0)
    private let sweeperDone = DispatchSemaphore(value: 0)
    /// How often deadlines are checked: a cut comes at most this late.
    private static let sweepInterval = DispatchTimeInterval.milliseconds(250)

    init(limits: ConnectionLimits, refused: @escaping @Sendable (ConnectionRefusal) -> Void) {
        self.limits = limits
        self.refused = refused
        if limits.requestSeconds > 0 {
            let thread = Thread { [self] in sweep() }
            thread.name = "passmint-deadlines"
            thread.start()
        } else {
            sweeperDone.signal()
        }
    }

    /// Stops the sweeper (after libmicrohttpd stopped: no connection is left).
    func stop() {
        state.withLock { $0.stopped = true }
        wake.signal()
        sweeperDone.wait()
    }

    /// Whether a new connection from `address` may be accepted (counted when `opened`).
    func admits(_ address: ClientAddressKey) -> Bool {
        guard limits.perAddress > 0 else { return true }
        let admitted = state.withLock { $0.perAddress[address, default: 0] < limits.perAddress }
        if !admitted { refused(.perAddressLimit) }
        return admitted
    }

    func opened(_ connection: MHDConnectionState) {
        let overCap = state.withLock { state -> Bool in
            let before = state.perAddress[connection.address, default: 0]
            state.perAddress[connection.address] = before + 1
            state.open[ObjectIdentifier(connection)] = connection
            return limits.perAddress > 0 && before >= limits.perAddress
        }
        // `admits` and this count are two steps: two network threads can admit one address's connections at the
        // same moment. The one past the cap is counted (its close balances it) and cut at once.
        if overCap {
            refused(.perAddressLimit)
            shutdown(connection.socket, Int32(SHUT_RDWR))
            return
        }
        awaitHead(connection)
    }

    func closed(_ connection: MHDConnectionState) {
        state.withLock { state in
            state.open[ObjectIdentifier(connection)] = nil
            let left = state.perAddress[connection.address, default: 1] - 1
            state.perAddress[connection.address] = left > 0 ? left : nil
        }
    }

    /// The connection waits for a request's head: it has the request deadline from now. `idle`: it answered a
    /// request before (kept alive).
    func awaitHead(_ connection: MHDConnectionState, idle: Bool = false) {
        guard limits.requestSeconds > 0 else { return }
        connection.inBody.store(false, ordering: .relaxed)
        connection.idle.store(idle, ordering: .relaxed)
        connection.deadline.store(Self.now + UInt64(limits.requestSeconds) * 1_000_000_000, ordering: .relaxed)
    }

    /// The head arrived at `started`: its body (if any) has the request deadline from then.
    func awaitBody(_ connection: MHDConnectionState, started: UInt64) {
        guard limits.requestSeconds > 0 else { return }
        connection.inBody.store(true, ordering: .relaxed)
        connection.deadline.store(started + UInt64(limits.requestSeconds) * 1_000_000_000, ordering: .relaxed)
    }

    /// `received` body bytes have arrived since `started`: one more second per KiB.
    func bodyProgress(_ connection: MHDConnectionState, started: UInt64, received: Int) {
        guard limits.requestSeconds > 0 else { return }
        let allowance = UInt64(limits.requestSeconds) * 1_000_000_000 + UInt64(received / 1024) * 1_000_000_000
        connection.deadline.store(started + allowance, ordering: .relaxed)
    }

    /// The request is being answered: no deadline until the connection waits for the next head.
    func answering(_ connection: MHDConnectionState) {
        connection.deadline.store(0, ordering: .relaxed)
    }

    /// The connections on network thread `thread` whose request's head has not reached the access handler.
    func pendingHeads(on thread: UInt) -> [MHDConnectionState] {
        state.withLock { state in
            state.open.values.filter {
                $0.headPending.load(ordering: .relaxed) && $0.thread.load(ordering: .relaxed) == thread
            }
        }
    }

    /// Open connections from `address` now (tests).
    func count(for address: ClientAddressKey) -> Int { state.withLock { $0.perAddress[address] ?? 0 } }

    /// Monotonic nanoseconds, from the coarse clock: deadlines are whole seconds, and it costs no system call.
    static var now: UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    private func sweep() {
        defer { sweeperDone.signal() }
        while true {
            _ = wake.wait(timeout: .now() + Self.sweepInterval)
            let now = Self.now
            // Under the lock: a connection is removed (in `closed`) before libmicrohttpd closes its socket, so a
            // socket cut here is never one the kernel already gave to another connection. Each cut is counted
            // before the socket is shut down, so whoever sees the connection end also finds it counted.
            let stopped = state.withLock { state in
                guard !state.stopped else { return true }
                for connection in state.open.values {
                    let deadline = connection.deadline.load(ordering: .relaxed)
                    // Unless the network thread moved the deadline (answering the request) meanwhile.
                    guard deadline != 0, deadline < now,
                        connection.deadline.compareExchange(
                            expected: deadline, desired: 0, ordering: .relaxed
                        ).exchanged
                    else { continue }
                    if connection.inBody.load(ordering: .relaxed) {
                        refused(.bodyTimeout)
                    } else if !connection.idle.load(ordering: .relaxed) {
                        refused(.headTimeout)
                    }
                    shutdown(connection.socket, Int32(SHUT_RDWR))
                }
                return false
            }
            if stopped { return }
        }
    }
}
