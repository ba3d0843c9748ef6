import Foundation
import Synchronization

/// Why the adapter cut a connection or refused it before any request was read.
public enum ConnectionRefusal: String, Sendable, CaseIterable {
    /// The client's address already held `perAddressLimit` connections.
    case perAddressLimit = "per_address_limit"
    /// A request's head did not arrive within the request deadline.
    case headTimeout = "head_timeout"
    /// A request's body did not arrive within its deadline (the request deadline plus one second per KiB).
    case bodyTimeout = "body_timeout"
}

/// How long a client may take over a request, and how many connections one address may hold.
public struct ConnectionLimits: Sendable, Equatable {
    /// Most connections open at once from one IP address; 0: no cap. Default 256.
    ///
    /// A carrier-grade NAT puts many phones behind one address, and a push to every member makes their phones
    /// fetch the pass within seconds, each connection held for as long as a slow network needs; 256 leaves room
    /// for that while one address alone can hold at most a sixteenth of the server's 4,096 connections. Behind a
    /// reverse proxy every connection comes from the proxy: raise the cap there, or set 0 and let the proxy cap
    /// per client. An IPv6 client with a /64 has many addresses; a proxy that keys on the /64 covers that.
    public var perAddress: Int
    /// Seconds a request's head may take, from the moment the connection is ready for it (accepted, or the
    /// previous response sent); its body then gets as long again plus one second per KiB received, so any client
    /// sending at least 1 KiB/s (8 kbit/s, below a GPRS link) is never cut. Default 30; 0: no deadline.
    public var requestSeconds: Int

    public init(perAddress: Int = 256, requestSeconds: Int = 30) {
        self.perAddress = perAddress
        self.requestSeconds = requestSeconds
    }
}

/// One connection, from libmicrohttpd's connection-started notification to its connection-closed one: its socket
/// (to cut it at a deadline), its address (for the per-address count) and the deadline of the request it is on.
final class MHDConnectionState: Sendable {
    /// The libmicrohttpd connection, as an address: passed back only to libmicrohttpd, on its own thread.
    let connection: UInt
    let socket: Int32
    let address: ClientAddressKey
    /// Monotonic nanoseconds by which the current phase must be done; 0: none (the request is being answered).
    let deadline = Atomic<UInt64>(0)
    /// True while the deadline is a body's, false while it is a head's (which refusal to count).
    let inBody = Atomic<Bool>(false)
    /// True from a request's first line until its head reached the access handler (see `MHDContext.misframed`).
    let headPending = Atomic<Bool>(false)
    /// The network thread that runs the connection (libmicrohttpd keeps a connection on one thread).
    let thread = Atomic<UInt>(0)

    init(connection: UInt, socket: Int32, address: ClientAddressKey) {
        self.connection = connection
        self.socket = socket
        self.address = address
    }
}

/// An IP address as a dictionary key (IPv4 as an IPv4-mapped IPv6 address).
struct ClientAddressKey: Hashable, Sendable {
    var high: UInt64
    var low: UInt64

    /// nil for an address family other than IPv4 and IPv6.
    init?(_ address: UnsafePointer<sockaddr>) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
            high = 0
            low = 0xFFFF_0000_0000 | UInt64(UInt32(bigEndian: ipv4))
        case AF_INET6:
            let bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            let words = withUnsafeBytes(of: bytes) { raw in
                (
                    raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                    raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                )
            }
            high = UInt64(bigEndian: words.0)
            low = UInt64(bigEndian: words.1)
        default:
            return nil
        }
    }
}

/// The per-address connection cap and the request deadlines, kept across libmicrohttpd's threads: connections
/// are counted per address when they open and close; a sweeper thread cuts (shutdown(2)) each connection whose
/// deadline has passed, which libmicrohttpd then sees as a client that went away.
final class ConnectionGuard: Sendable {
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
        state.withLock { state in
            state.perAddress[connection.address, default: 0] += 1
            state.open[ObjectIdentifier(connection)] = connection
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

    /// The connection waits for a request's head: it has the request deadline from now.
    func awaitHead(_ connection: MHDConnectionState) {
        guard limits.requestSeconds > 0 else { return }
        connection.inBody.store(false, ordering: .relaxed)
        connection.deadline.store(Self.now + UInt64(limits.requestSeconds) * 1_000_000_000, ordering: .relaxed)
    }

    /// The head arrived and a body of `expected` bytes (nil: none) follows, starting now.
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

    static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    private func sweep() {
        defer { sweeperDone.signal() }
        while true {
            _ = wake.wait(timeout: .now() + Self.sweepInterval)
            let now = Self.now
            // Under the lock: a connection is removed (in `closed`) before libmicrohttpd closes its socket, so a
            // socket cut here is never one the kernel already gave to another connection.
            let cut: [ConnectionRefusal]? = state.withLock { state in
                guard !state.stopped else { return nil }
                var cut: [ConnectionRefusal] = []
                for connection in state.open.values {
                    let deadline = connection.deadline.load(ordering: .relaxed)
                    guard deadline != 0, deadline < now else { continue }
                    connection.deadline.store(0, ordering: .relaxed)
                    shutdown(connection.socket, Int32(SHUT_RDWR))
                    cut.append(connection.inBody.load(ordering: .relaxed) ? .bodyTimeout : .headTimeout)
                }
                return cut
            }
            guard let cut else { return }
            for reason in cut { refused(reason) }
        }
    }
}
