import Foundation

/// Leader/follower group commit. Callers queue their write; whoever finds no commit in progress becomes the
/// leader, takes the queue (at most `limit` writes), commits it as one transaction, wakes each of its writers and
/// hands the lead to the first writer that queued meanwhile. So under load many writes share one `COMMIT`; alone,
/// a write is committed at once, with no added delay. Each waiter sleeps on its own semaphore: no thundering herd.
///
/// Used by the SQLite store for every write (one writer per file) and by the PostgreSQL store for registrations
/// (one statement for the whole group: one round trip, one commit).
final class GroupCommit<Write: Sendable>: @unchecked Sendable {  // `queue` and `leading` only touched under `lock`
    private let lock = NSLock()
    private var queue: [Waiter] = []
    private var leading = false
    private let limit: Int

    /// A queued write, and how its caller is woken: done, or now the leader.
    private final class Waiter: @unchecked Sendable {  // `leads` written under GroupCommit.lock before `wake` signals
        let write: Write
        let wake = DispatchSemaphore(value: 0)
        var leads = false
        init(_ write: Write) { self.write = write }
    }

    /// - Parameter limit: writes one commit takes at most (the rest wait for the next leader).
    init(limit: Int = .max) { self.limit = max(1, limit) }

    /// Queues `write` and returns once a leader (this caller or another) has passed it to `commit`, which must
    /// record each write's result in the write itself.
    func submit(_ write: Write, commit: ([Write]) -> Void) {
        let waiter = Waiter(write)
        lock.lock()
        queue.append(waiter)
        if leading {
            lock.unlock()
            waiter.wake.wait()
            guard waiter.leads else { return }
        } else {
            leading = true
            lock.unlock()
        }
        // Leader: commit what is queued (this write first among them), then pass the lead on.
        lock.lock()
        let batch = Array(queue.prefix(limit))
        queue.removeFirst(batch.count)
        lock.unlock()
        commit(batch.map(\.write))
        for other in batch where other !== waiter { other.wake.signal() }
        lock.lock()
        if let next = queue.first {
            next.leads = true
            lock.unlock()
            next.wake.signal()
        } else {
            leading = false
            lock.unlock()
        }
    }
}
