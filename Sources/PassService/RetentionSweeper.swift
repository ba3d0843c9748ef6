import Foundation
import Synchronization
import PassLog
import PassStore

/// Deletes the Wallet log lines and rewards sign-ups older than the retention (`UnauthenticatedWriteLimits`): once
/// when the service starts and then every `sweepIntervalSeconds`, and counts what it
/// deleted in the metrics.
final class RetentionSweeper: Sendable {
    private let store: any PassStore
    private let limits: UnauthenticatedWriteLimits
    private let metrics: Metrics
    private let running = Mutex<Task<Void, Never>?>(nil)
    /// Where pass events are kept and for how many days; nil when events are off.
    private let events: (store: any PassEventStore, retentionDays: Int)?

    init(
        store: any PassStore, limits: UnauthenticatedWriteLimits, metrics: Metrics,
        events: (store: any PassEventStore, retentionDays: Int)? = nil
    ) {
        self.store = store
        self.limits = limits
        self.metrics = metrics
        self.events = events
    }

    /// Sweeps now, then every interval until `stop()`.
    func start() {
        let interval = Duration.seconds(max(1, limits.sweepIntervalSeconds))
        // A short DELETE every few minutes: blocking one task thread for it is cheaper than a thread of its own.
        let task = Task.detached { [self] in
            while !Task.isCancelled {
                sweep()
                try? await Task.sleep(for: interval)
            }
        }
        running.withLock { $0 = task }
    }

    func stop() {
        running.withLock { task in
            task?.cancel()
            task = nil
        }
    }

    /// Deletes what was stored before `now` minus the retention; the rows deleted per kind (empty when the store
    /// failed, which is logged: the next sweep tries again).
    @discardableResult
    func sweep(now: Date = Date()) -> [UnauthenticatedKind: Int] {
        if let events {
            do {
                _ = try events.store.deleteEvents(
                    before: now.addingTimeInterval(-Double(events.retentionDays) * 86_400))
            } catch {
                ServiceLog.error(
                    "retention: deleting pass events older than \(events.retentionDays) days failed: \(error)")
            }
        }
        let cutoff = now.addingTimeInterval(-Double(limits.retentionDays) * 86_400)
        do {
            let deleted = try store.deleteUnauthenticated(storedBefore: cutoff)
            for (kind, rows) in deleted { metrics.recordExpired(kind, rows: rows) }
            return deleted
        } catch {
            ServiceLog.error(
                "retention: deleting log lines and sign-ups older than \(limits.retentionDays) days failed", error)
            return [:]
        }
    }
}
