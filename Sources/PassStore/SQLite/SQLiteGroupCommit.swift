import Foundation

/// A write that takes part in a group commit.
protocol GroupedWrite: AnyObject, Sendable {
    /// Runs the write inside its own savepoint of the open transaction, or straight in it when it is the
    /// transaction's only write (`alone`). Returns whether it succeeded.
    @discardableResult
    func run(on db: SQLiteConnection, alone: Bool) -> Bool
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

    func run(on db: SQLiteConnection, alone: Bool) -> Bool {
        guard let body else { return false }
        self.body = nil
        // A savepoint makes SQLite copy every page a statement changes into its sub-journal, kept for the whole
        // savepoint: for a write of thousands of rows that is a temporary file many times the rows' size. A
        // write alone in its transaction needs no savepoint; when it fails the transaction is rolled back.
        result = alone ? Result { try body(db) } : Result { try db.savepoint { try body(db) } }
        if case .success = result { return true }
        return false
    }

    func fail(_ error: any Error) {
        body = nil
        result = .failure(error)
    }
}
