import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP port on 127.0.0.1 that nothing listened on a moment ago, for a server that must be told its port.
///
/// Drawn below the kernel's ephemeral range (`ip_local_port_range`), where the outgoing connections of tests
/// running meanwhile never take it before the server binds it, and never handed out twice in this process.
public func freeLoopbackPort() throws -> Int {
    let ephemeralStart = ephemeralPortStart()
    for _ in 0..<200 {
        let port = Int.random(in: 10_000..<max(ephemeralStart, 10_001))
        guard handedOutPorts.withLock({ $0.insert(port).inserted }) else { continue }
        if try canBind(port: port) { return port }
    }
    throw TestToolFailure("no free port on 127.0.0.1 between 10000 and \(ephemeralStart)")
}

private let handedOutPorts = Mutex<Set<Int>>([])

/// The first port of the kernel's ephemeral range (32768 when it cannot be read).
private func ephemeralPortStart() -> Int {
    let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
    return text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first.flatMap { Int($0) } ?? 32_768
}

/// Whether a socket can be bound to 127.0.0.1:`port` right now (bound, then closed).
private func canBind(port: Int) throws -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw TestToolFailure("socket() failed: \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
}

/// A TCP connection to 127.0.0.1:`port`: its socket, which the caller closes; nil when nothing accepts it.
public func connectLoopback(port: Int) -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
    guard connected else {
        close(fd)
        return nil
    }
    return fd
}

/// Whether something accepts connections on 127.0.0.1:`port` (a probe connection, closed at once).
public func isListening(port: Int) -> Bool {
    guard let fd = connectLoopback(port: port) else { return false }
    close(fd)
    return true
}
