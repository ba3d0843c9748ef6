import Foundation
import Synchronization

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
    /// True while a kept-alive connection waits for its next request and none of it has come: cut at the
    /// deadline like any other, but not counted as a refusal (it is an idle timeout).
    let idle = Atomic<Bool>(false)
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

    /// The key of an IPv4 address in dotted form (tests); nil when it is not one.
    init?(loopback text: String) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        guard inet_pton(AF_INET, text, &address.sin_addr) == 1 else { return nil }
        let key = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { ClientAddressKey($0) }
        }
        guard let key else { return nil }
        self = key
    }

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
