internal import CMicroHTTPD
import Foundation

/// Owner of one running libmicrohttpd daemon: stopped, and its callback context released, in deinit.
// @unchecked Sendable: MHD daemons are thread-safe; the pointer is only used in init/deinit.
package final class MHDDaemon: @unchecked Sendable {
    private let daemon: OpaquePointer
    private let context: Unmanaged<MHDContext>
    private let workers: BlockingWorkers?
    private let connections: ConnectionGuard
    package let port: Int

    package struct Options {
        var host: String
        var port: Int
        var threadPoolSize: Int
        /// Threads that run requests other than GET/HEAD (they write to the store); 0 runs them inline.
        var writeWorkers: Int
        var connectionMemoryLimit: Int
        var connectionTimeoutSeconds: Int
        var connectionLimit: Int
        /// The per-address cap and the request deadlines.
        var connectionLimits: ConnectionLimits
        /// Serve HTTPS only, with this certificate and key; nil serves plain HTTP.
        var tls: TLSCredentials?

        package init(
            host: String, port: Int, threadPoolSize: Int, writeWorkers: Int, connectionMemoryLimit: Int,
            connectionTimeoutSeconds: Int, connectionLimit: Int, connectionLimits: ConnectionLimits,
            tls: TLSCredentials?
        ) {
            self.host = host
            self.port = port
            self.threadPoolSize = threadPoolSize
            self.writeWorkers = writeWorkers
            self.connectionMemoryLimit = connectionMemoryLimit
            self.connectionTimeoutSeconds = connectionTimeoutSeconds
            self.connectionLimit = connectionLimit
            self.connectionLimits = connectionLimits
            self.tls = tls
        }
    }

    /// TLS 1.2 and 1.3 only: what Wallet (App Transport Security) requires of a web service.
    static let tlsPriorities = "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2"

    /// Binds and starts serving; `respond` is called on the daemon's threads, `refused` for each request the
    /// adapter answers itself (a head refused by `limits` or `headGuard`, a body over its limit), and
    /// `connectionRefused` for each connection refused or cut (per-address cap, deadlines).
    package init(
        options: Options, limits: RequestLimits, headGuard: HeadGuard,
        respond: @escaping @Sendable (Request) -> Response,
        refused: @escaping @Sendable (HTTPMethod, Response, Duration) -> Void,
        connectionRefused: @escaping @Sendable (ConnectionRefusal) -> Void
    ) throws(HTTPServerError) {
        Self.raiseDescriptorLimit(toHold: options.connectionLimit)
        let workers = options.writeWorkers > 0 ? BlockingWorkers(threads: options.writeWorkers) : nil
        let connections = ConnectionGuard(limits: options.connectionLimits, refused: connectionRefused)
        let context = Unmanaged.passRetained(
            MHDContext(
                limits: limits, headGuard: headGuard, connections: connections, workers: workers,
                tls: options.tls != nil, respond: respond, refused: refused))
        // Room for every head the limits allow, so that one over a limit gets PassMint's JSON answer.
        let memory = max(options.connectionMemoryLimit, limits.connectionMemory)
        let host = options.host == "localhost" ? "127.0.0.1" : options.host
        let isIPv6 = host.contains(":")
        var flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_USE_ERROR_LOG.rawValue
        if workers != nil { flags |= MHD_ALLOW_SUSPEND_RESUME.rawValue }
        if isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        errno = 0
        let started: OpaquePointer? = Self.withSocketAddress(host: host, port: options.port) { address in
            guard let address else { return nil }
            return Self.withTLSStrings(options.tls) { certificate, key, priorities in
                pm_mhd_start_daemon(
                    flags, address, UInt32(options.threadPoolSize), memory,
                    UInt32(options.connectionTimeoutSeconds), UInt32(options.connectionLimit),
                    mhdAccessHandler, mhdRequestCompleted, mhdRequestStarted, mhdAcceptPolicy, mhdConnectionNotified,
                    mhdLog, context.toOpaque(), certificate, key, priorities)
            }
        }
        guard let started else {
            let refused: StartFailure = options.tls == nil ? .optionsRefused : .tlsRefused
            let reason: StartFailure = errno != 0 ? .system(errno: errno) : refused
            workers?.close()
            connections.stop()
            context.release()
            throw .serverStart(
                host: options.host, port: options.port,
                isIPv6 || host.contains(".") ? reason : .hostNotAnAddress)
        }
        self.daemon = started
        self.context = context
        self.workers = workers
        self.connections = connections
        self.port = Int(pm_mhd_bound_port(started))
    }

    /// Raises the soft limit on open files to the hard one when it cannot hold `connections` sockets plus the
    /// store's, the logs' and the push client's descriptors (a shell's usual 1,024 cannot); never lowers it.
    private static func raiseDescriptorLimit(toHold connections: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        let wanted = rlim_t(connections + 256)
        guard limit.rlim_cur < wanted else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// The per-address counts and deadlines (tests read the counts).
    package var connectionGuard: ConnectionGuard { connections }

    /// Requests whose state is alive now (tests: zero once every connection is done, whatever way it ended).
    package var openRequests: Int { context.takeUnretainedValue().openRequests.load(ordering: .relaxed) }

    deinit {
        // Every suspended connection must be resumed before MHD stops (it panics otherwise): let the workers
        // finish what they took, and take nothing new.
        workers?.close()
        MHD_stop_daemon(daemon)
        connections.stop()
        context.release()
    }

    /// The PEM texts and priority string as C strings for the duration of `body` (MHD copies them into GnuTLS
    /// while it starts); three nils without TLS.
    private static func withTLSStrings<T>(
        _ tls: TLSCredentials?,
        _ body: (UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> T
    ) -> T {
        guard let tls else { return body(nil, nil, nil) }
        return tls.certificatePEM.withUnsafeBufferPointer { certificate in
            tls.keyPEM.withUnsafeBufferPointer { key in
                tlsPriorities.withCString { body(certificate.baseAddress, key.baseAddress, $0) }
            }
        }
    }

    private static func withSocketAddress<T>(host: String, port: Int, _ body: (UnsafePointer<sockaddr>?) -> T) -> T {
        if host.contains(":") {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(truncatingIfNeeded: port)).bigEndian
            guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else { return body(nil) }
            return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port)).bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return body(nil) }
        return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }
}
