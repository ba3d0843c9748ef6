/// What became of one write by a caller without credentials (a Wallet log post, a personalize request).
public enum UnauthenticatedWriteResult: String, Sendable, CaseIterable {
    /// Stored (a sign-up: stored and its token signed).
    case stored
    /// A repeat of a stored sign-up, answered with its stored signature.
    case repeated
    /// A personalize request for no pass that awaits a sign-up with this token (the uniform 404).
    case refused
    /// A malformed body or a token not of Wallet's shape (400).
    case invalid
    /// 429: the client address spent its hourly budget.
    case addressLimit = "address_limit"
    /// 429: the store holds as much of the kind as it may.
    case storeCap = "store_cap"
}

extension UnauthenticatedWriteResult {
    /// Log posts are stored or refused for a limit; the other results are a sign-up's.
    func applies(to kind: UnauthenticatedKind) -> Bool {
        kind == .personalization || [.stored, .addressLimit, .storeCap].contains(self)
    }
}

/// The label pair of `passmint_unauthenticated_writes_total`.
struct UnauthenticatedWriteKey: Hashable {
    var kind: UnauthenticatedKind
    var result: UnauthenticatedWriteResult
}

extension Metrics {
    /// Counts one write by a caller without credentials.
    public func recordUnauthenticated(_ kind: UnauthenticatedKind, _ result: UnauthenticatedWriteResult) {
        unauthenticatedWrites.withLock { $0[UnauthenticatedWriteKey(kind: kind, result: result), default: 0] += 1 }
    }

    /// Counts rows the retention sweep deleted.
    public func recordExpired(_ kind: UnauthenticatedKind, rows: Int) {
        guard rows > 0 else { return }
        unauthenticatedExpired.withLock { $0[kind, default: 0] += rows }
    }

    /// How many writes of `kind` ended with `result`.
    public func unauthenticatedCount(_ kind: UnauthenticatedKind, _ result: UnauthenticatedWriteResult) -> Int {
        unauthenticatedWrites.withLock { $0[UnauthenticatedWriteKey(kind: kind, result: result)] ?? 0 }
    }

    /// The counters, and the gauges of what is stored when the store could be read.
    func renderUnauthenticated(stored: [(UnauthenticatedKind, UnauthenticatedUsage, cap: Int)]?) -> String {
        let name = "passmint_unauthenticated_writes_total"
        var out = "# HELP \(name) Writes by callers without credentials (Wallet log posts, rewards sign-ups), "
        out += "by kind and result.\n# TYPE \(name) counter\n"
        let writes = unauthenticatedWrites.withLock { $0 }
        for kind in UnauthenticatedKind.allCases {
            for result in UnauthenticatedWriteResult.allCases where result.applies(to: kind) {
                let count = writes[UnauthenticatedWriteKey(kind: kind, result: result)] ?? 0
                out += "\(name){kind=\(Self.label(kind.rawValue)),result=\(Self.label(result.rawValue))} \(count)\n"
            }
        }
        let expired = unauthenticatedExpired.withLock { $0 }
        out += "# HELP passmint_unauthenticated_expired_rows_total Log lines and sign-ups deleted by retention.\n"
        out += "# TYPE passmint_unauthenticated_expired_rows_total counter\n"
        for kind in UnauthenticatedKind.allCases {
            out += "passmint_unauthenticated_expired_rows_total{kind=\(Self.label(kind.rawValue))} "
            out += "\(expired[kind] ?? 0)\n"
        }
        guard let stored else { return out }
        let gauges: [(name: String, help: String, value: (UnauthenticatedUsage, Int) -> Int)] = [
            (
                "passmint_unauthenticated_stored_bytes",
                "Bytes stored for callers without credentials (text plus a per-row overhead), by kind.",
                { usage, _ in usage.bytes }
            ),
            (
                "passmint_unauthenticated_stored_rows", "Rows stored for callers without credentials, by kind.",
                { usage, _ in usage.rows }
            ),
            (
                "passmint_unauthenticated_cap_bytes", "The most bytes stored per kind; beyond it writes get 429.",
                { _, cap in cap }
            ),
        ]
        for gauge in gauges {
            out += "# HELP \(gauge.name) \(gauge.help)\n# TYPE \(gauge.name) gauge\n"
            for (kind, usage, cap) in stored {
                out += "\(gauge.name){kind=\(Self.label(kind.rawValue))} \(gauge.value(usage, cap))\n"
            }
        }
        return out
    }
}
