import Foundation
import PassHTTP

/// How `WalletService` listens and behaves.
package struct ServiceConfiguration: Sendable {
    /// One network thread per core (at least 2).
    package static var defaultThreadPoolSize: Int { max(2, ProcessInfo.processInfo.activeProcessorCount) }

    /// 16 per core (at most 64): a request that writes waits while its write is group-committed, so many workers
    /// keep enough writes in flight for one COMMIT to carry several of them.
    package static var defaultWriteWorkers: Int { min(64, 16 * max(1, ProcessInfo.processInfo.activeProcessorCount)) }

    /// IPv4 or IPv6 address to bind ("localhost" means 127.0.0.1).
    package var host: String
    /// 0 asks the kernel for a free port; read it back from `WalletService.boundPort`.
    package var port: Int
    /// Threads of the HTTP server (epoll, one listening socket shared).
    package var threadPoolSize: Int
    /// Threads that run requests which change state (register, unregister, log, personalize, admin PATCH) while
    /// the network threads go on serving; 0 answers them on the network threads.
    package var writeWorkers: Int
    /// How much of a request is read from outside: target, header count and bytes, body.
    package var limits: RequestLimits
    /// Request bodies larger than this get 413 (the same value as `limits.maxBodyBytes`).
    package var maxBodyBytes: Int {
        get { limits.maxBodyBytes }
        set { limits.maxBodyBytes = newValue }
    }
    /// Least per-connection memory for headers and buffers; raised to what `limits` need.
    package var connectionMemoryLimit: Int
    package var connectionTimeoutSeconds: Int
    package var connectionLimit: Int
    /// Connections per client address and the request deadlines (`ConnectionLimits`).
    package var connectionLimits: ConnectionLimits
    /// Name of the environment variable holding the admin bearer token; admin API is disabled when unset.
    package var adminTokenVariable: String
    /// Where each answered request is logged as one JSON Lines object (route pattern, status, bytes, duration;
    /// never a path, a header or a body); nil logs nothing.
    package var accessLog: AccessLog?
    /// Serve HTTPS only, with this certificate and key; nil serves plain HTTP (TLS ends at a proxy in front).
    package var tls: TLSCredentials?
    /// Rendered pass bodies kept in memory.
    package var renderCacheEntries: Int
    package var renderCacheBytes: Int
    /// Where distribution links start (`<linkBase>/p/<token>`, the landing page's QR code and admin reissues);
    /// nil: at each pass's web service URL.
    package var linkBase: String? = nil
    /// What callers without credentials may make the service store (Wallet logs, rewards sign-ups), per client
    /// address and in all, and how long it is kept.
    package var unauthenticated = UnauthenticatedWriteLimits()
    /// What the service records of each pass's devices and pushes for `passmint trace`; nil records nothing.
    package var events: PassEventOptions? = PassEventOptions()

    package init(
        host: String = "127.0.0.1", port: Int = 8080, threadPoolSize: Int = Self.defaultThreadPoolSize,
        writeWorkers: Int = Self.defaultWriteWorkers, limits: RequestLimits = RequestLimits(),
        connectionMemoryLimit: Int = 32 * 1024, connectionTimeoutSeconds: Int = 30, connectionLimit: Int = 4096,
        connectionLimits: ConnectionLimits = ConnectionLimits(),
        adminTokenVariable: String = "PASSMINT_ADMIN_TOKEN", accessLog: AccessLog? = nil, tls: TLSCredentials? = nil,
        renderCacheEntries: Int = 4096, renderCacheBytes: Int = 256 * 1024 * 1024
    ) {
        self.host = host
        self.port = port
        self.threadPoolSize = threadPoolSize
        self.writeWorkers = writeWorkers
        self.limits = limits
        self.connectionMemoryLimit = connectionMemoryLimit
        self.connectionTimeoutSeconds = connectionTimeoutSeconds
        self.connectionLimit = connectionLimit
        self.connectionLimits = connectionLimits
        self.adminTokenVariable = adminTokenVariable
        self.accessLog = accessLog
        self.tls = tls
        self.renderCacheEntries = renderCacheEntries
        self.renderCacheBytes = renderCacheBytes
    }
}
