import Foundation

/// A write that takes part in a group commit.
protocol GroupedWrite: AnyObject, Sendable {
    /// Runs the write inside its own savepoint of the open transaction.
    func run(on db: SQLiteConnection)
    /// The transaction did not commit: the write failed with `error`, whatever `run` produced.
    func fail(_ error: any Error)
}

/// One caller's write and its result; the caller blocks in `GroupCommit.submit` until a leader has run it.
final class PendingWrite<T>: GroupedWrite, @unchecked Sendable {  // the leader writes before waking the caller,
    // the caller reads only after its wake-up
    /// Dropped as soon as it has run or failed: the caller's closure must not outlive its call
    /// (`withoutActuallyEscaping`), while the leader may still hold this object.
    private var body: ((SQLiteConnection) throws -> T)?
    private(set) var result: Result<T, any Error>?

    init(_ body: @escaping (SQLiteConnection) throws -> T) { self.body = body }

    func run(on db: SQLiteConnection) {
        guard let body else { return }
        self.body = nil
        result = Result { try db.savepoint { try body(db) } }
    }

    func fail(_ error: any Error) {
        body = nil
        result = .failure(error)
    }
}

/// Leader/follower group commit. Callers queue their write; whoever finds no commit in progress becomes the
/// leader, takes the whole queue, commits it as one transaction, wakes each of its writers and hands the lead to
/// the first writer that queued meanwhile. So under load many writes share one `COMMIT`; alone, a write is
/// committed at once, with no added delay. Each waiter sleeps on its own semaphore: no thundering herd.
final class GroupCommit: @unchecked Sendable {  // `queue` and `leading` only touched while `lock` is held
    private let lock = NSLock()
    private var queue: [Waiter] = []
    private var leading = false

    /// A queued write, and how its caller is woken: done, or now the leader.
    private final class Waiter: @unchecked Sendable {  // `leads` written under GroupCommit.lock before `wake` signals
        let write: any GroupedWrite
        let wake = DispatchSemaphore(value: 0)
        var leads = false
        init(_ write: any GroupedWrite) { self.write = write }
    }

    func submit(_ write: any GroupedWrite, commit: ([any GroupedWrite]) -> Void) {
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
        // Leader: commit everything queued so far (this write included), then pass the lead on.
        lock.lock()
        let batch = queue
        queue.removeAll(keepingCapacity: true)
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
