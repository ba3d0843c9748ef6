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
