/// How much callers without credentials can make the service store and do: Wallet's log lines (`POST /v1/log`)
/// and rewards sign-ups (`POST …/personalize`), per client address and in all, and for how long it is kept.
///
/// The per-address budgets are kept in memory by each instance (several instances behind one balancer each give
/// an address its budget); the caps on the total are the store's and hold across instances.
public struct UnauthenticatedWriteLimits: Sendable, Equatable {
    /// Log lines and sign-ups older than this are deleted.
    public var retentionDays: Int
    /// The most bytes of log lines stored at once (text plus `UnauthenticatedKind.rowOverheadBytes` per line);
    /// beyond it `POST /v1/log` gets 429 and nothing is written.
    public var maxLogBytes: Int
    /// The most bytes of sign-ups stored at once (token, info, signature, plus the row overhead).
    public var maxPersonalizationBytes: Int
    /// Log bytes one client address may send per hour (0: no per-address budget).
    public var logBytesPerAddressPerHour: Int
    /// Personalize requests one client address may make per hour, whatever they ask (0: no per-address budget).
    public var personalizeRequestsPerAddressPerHour: Int
    /// How often the retention sweep runs (besides once at start).
    public var sweepIntervalSeconds: Int

    /// What `Retry-After` says when the total is at its cap: the sweep may free space within this time.
    public var capRetryAfterSeconds: Int { max(60, min(3600, sweepIntervalSeconds)) }

    public init(
        retentionDays: Int = 30, maxLogBytes: Int = 8 * 1024 * 1024, maxPersonalizationBytes: Int = 16 * 1024 * 1024,
        logBytesPerAddressPerHour: Int = 256 * 1024, personalizeRequestsPerAddressPerHour: Int = 60,
        sweepIntervalSeconds: Int = 600
    ) {
        self.retentionDays = retentionDays
        self.maxLogBytes = maxLogBytes
        self.maxPersonalizationBytes = maxPersonalizationBytes
        self.logBytesPerAddressPerHour = logBytesPerAddressPerHour
        self.personalizeRequestsPerAddressPerHour = personalizeRequestsPerAddressPerHour
        self.sweepIntervalSeconds = sweepIntervalSeconds
    }

    /// The cap of `kind`.
    func maxBytes(_ kind: UnauthenticatedKind) -> Int {
        switch kind {
        case .log: maxLogBytes
        case .personalization: maxPersonalizationBytes
        }
    }
}
