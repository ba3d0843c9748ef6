import Foundation
import PassMintTestSupport
import Testing

@testable import PassHTTP
@testable import PassService

/// The per-address connection cap and the request deadlines over live sockets.
@Suite("HTTP: connections per client address and request deadlines")
struct HTTPConnectionLimitTests {
    /// A TCP connection to 127.0.0.1:`port` from `source` (any 127.x.y.z), closed on deinit.
    private final class Connection {
        let fd: Int32

        init(port: Int, from source: String) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw POSIXError(.EIO) }
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            var remote = sockaddr_in()
            remote.sin_family = sa_family_t(AF_INET)
            remote.sin_port = in_port_t(UInt16(port)).bigEndian
            remote.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &local) { localPointer in
                withUnsafePointer(to: &remote) { remotePointer in
                    localPointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { l in
                        remotePointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { r in
                            bind(fd, l, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                                && connect(fd, r, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                        }
                    }
                }
            }
            guard connected else {
                close(fd)
                throw POSIXError(.ECONNREFUSED)
            }
        }

        deinit { close(fd) }

        func send(_ text: String) {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        /// What arrives until the server closes or `seconds` pass; `closed` tells which.
        func read(seconds: Int) -> (text: String, closed: Bool) {
            var wait = timeval(tv_sec: seconds, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n > 0 {
                    received += buffer[0..<n]
                    continue
                }
                let closed = n == 0 || errno == ECONNRESET
                return (String(decoding: received, as: UTF8.self), closed)
            }
        }
    }

    @Test("past the cap an address's new connections are closed unread; others are served; a closed one frees its slot")
    func perAddressCap() throws {
        let live = try LiveService(
            configuration: ServiceConfiguration(
                host: "127.0.0.1", port: 0, connectionLimits: ConnectionLimits(perAddress: 3, requestSeconds: 0)))
        var held = try (0..<3).map { _ in try Connection(port: live.port, from: "127.0.0.1") }
        let key = try #require(ClientAddressKey(loopback: "127.0.0.1"))
        let guardian = try #require(live.service.connectionGuard)
        #expect(waitUntil(timeout: 10) { guardian.count(for: key) == 3 })
        let refused = try Connection(port: live.port, from: "127.0.0.1")
        refused.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        let answer = refused.read(seconds: 15)
        #expect(answer.closed && answer.text.isEmpty, "\(answer)")
        #expect(live.service.metrics.refusalCount(.perAddressLimit) == 1)
        // Another address is served meanwhile.
        let other = try Connection(port: live.port, from: "127.0.0.2")
        other.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(other.read(seconds: 15).text.hasPrefix("HTTP/1.1 200"))
        // One of the three goes away: its slot is free again.
        held.removeLast()
        #expect(waitUntil(timeout: 10) { guardian.count(for: key) == 2 })
        let again = try Connection(port: live.port, from: "127.0.0.1")
        again.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(again.read(seconds: 15).text.hasPrefix("HTTP/1.1 200"))
        withExtendedLifetime(held) {}
    }

    @Test("a head that trickles in is cut at the deadline; a body is cut at the deadline plus its allowance")
    func deadlines() throws {
        let live = try LiveService(
            configuration: ServiceConfiguration(
                host: "127.0.0.1", port: 0, connectionLimits: ConnectionLimits(perAddress: 0, requestSeconds: 1)))
        let head = try Connection(port: live.port, from: "127.0.0.1")
        head.send("GET /healthz HTTP/1.1\r\nHost: x\r\n")
        let started = Date()
        let cut = head.read(seconds: 10)
        #expect(cut.closed && cut.text.isEmpty, "\(cut)")
        #expect(Date().timeIntervalSince(started) < 9, "cut by the 1 s deadline, not by the read giving up at 10 s")
        #expect(live.service.metrics.refusalCount(.headTimeout) == 1)
        let body = try Connection(port: live.port, from: "127.0.0.1")
        body.send("POST /v1/log HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
        #expect(body.read(seconds: 10).closed)
        #expect(live.service.metrics.refusalCount(.bodyTimeout) == 1)
        #expect(try live.store.recentLogs(limit: 5).isEmpty)
        // A request that arrives in time is served, also on a connection that waited a little first.
        let prompt = try Connection(port: live.port, from: "127.0.0.1")
        prompt.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(prompt.read(seconds: 15).text.hasPrefix("HTTP/1.1 200"))
        #expect(live.settles())
    }
}
