/// How much of a request the service reads from outside before refusing it; each limit is answered with a JSON
/// error naming the limit and the `serve` option that raises it.
public struct RequestLimits: Sendable, Equatable {
    /// Longest request target (path and query, as sent): 4 KiB; longer gets 414. `--max-url-bytes`.
    /// Wallet's longest URL is a few hundred bytes.
    public var maxURLBytes: Int
    /// Most header fields in one request: 64; more gets 431. `--max-headers`. Wallet sends about ten.
    public var maxHeaderCount: Int
    /// Most bytes of header names and values together: 16 KiB; more gets 431. `--max-header-bytes`.
    public var maxHeaderBytes: Int
    /// Largest request body: 64 KiB; larger gets 413. `--max-body-bytes`. A registration is under 200 bytes; a
    /// Wallet log upload or an admin change is the largest body the service expects.
    public var maxBodyBytes: Int
    /// Largest body of `POST /admin/v1/updates` (a bulk change, CSV or JSON Lines): 64 MiB, about a million
    /// rows of a few fields; larger gets 413. `--max-bulk-bytes`. Held in memory until the job has read it, so it
    /// applies only once the admin token on the request's head was checked (see `HeadGuard`).
    public var maxUpdateBodyBytes: Int

    /// - Parameters: see the properties; each must be at least 1.
    public init(
        maxURLBytes: Int = 4096, maxHeaderCount: Int = 64, maxHeaderBytes: Int = 16 * 1024,
        maxBodyBytes: Int = 64 * 1024, maxUpdateBodyBytes: Int = 64 * 1024 * 1024
    ) {
        self.maxURLBytes = maxURLBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.maxUpdateBodyBytes = maxUpdateBodyBytes
    }

    /// libmicrohttpd's per-connection memory that the limits need: room for the longest target and all header
    /// bytes the limits allow, plus its bookkeeping and read buffer. A request over a limit then reaches
    /// PassMint's check and gets its JSON answer; only a request far past the limits meets libmicrohttpd's own
    /// bare 431.
    var connectionMemory: Int {
        maxURLBytes + maxHeaderBytes + maxHeaderCount * 64 + 16 * 1024
    }
}
