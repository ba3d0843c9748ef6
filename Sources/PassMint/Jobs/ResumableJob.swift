import PassModel

/// A long job that `JobEngine` runs a chunk at a time (`batch`, `update --csv`, `resign`, `templates publish`).
///
/// The job holds only what is its own: where its records come from (`nextChunk`), what becomes of each record and
/// how a chunk is made durable together with the job's position (`commit`), and what it still has to write when it
/// ends (`finish`). The engine holds the rest: the loop, the tally, the report, progress, stopping between chunks,
/// the elapsed time.
///
/// Each job processes its records inside `commit` rather than one call per record from the engine, because where
/// that happens is part of what makes the job correct: a bulk update decides each row against the passes locked in
/// the chunk's transaction, and a batch signs a window's records in parallel while it writes the window before.
package protocol ResumableJob {
    /// What one read from the source gives: a window of CSV records, a page of stored passes.
    associatedtype Chunk
    /// What committing a chunk gives: each record's outcome, and what else the tally counts.
    associatedtype Committed: CommittedChunk
    /// The job's totals, counted by the engine a committed chunk at a time.
    associatedtype Tally: JobTally where Tally.Committed == Committed
    /// The job's own error type: the pipeline's (`PassMintError`) for `batch`, the program's operations'
    /// (`OperationError`) for the jobs on a store.
    associatedtype Failure: Error = PassMintError

    /// The job's error for a report that cannot be written (`ReportWriter`'s error).
    static func reportFailed(_ error: PassMintError) -> Failure

    /// The next chunk from the job's source, nil once it has none left.
    /// - Throws: when the source cannot be read (the chunks committed before stay committed).
    mutating func nextChunk() throws(Failure) -> Chunk?

    /// True once the source is known to hold no more records: the engine then does not ask whether to stop.
    var exhausted: Bool { get }

    /// Processes the chunk's records and commits them with the job's position, so that a job stopped or killed
    /// after it resumes after it.
    /// - Returns: the records' outcomes in input order, and a reason to stop once they are reported, if any.
    /// - Throws: when the chunk cannot be committed; the job ends at once and its report is not kept.
    mutating func commit(_ chunk: Chunk) throws(Failure) -> Committed

    /// Writes what the job still holds once its last chunk is committed, and marks a completed job done.
    /// When the job ends for a reason of its own (`.stopped`), an error of this step must not hide that one.
    mutating func finish(_ end: JobEnd) throws(Failure)

    /// The error the job ends with when a committed chunk gave `reason` to stop; `tally` counts that chunk.
    func error(stoppingFor reason: Committed.Stop, after tally: Tally) -> Failure
}

extension ResumableJob {
    package mutating func finish(_ end: JobEnd) throws(Failure) {}
}

extension ResumableJob where Failure == PassMintError {
    package static func reportFailed(_ error: PassMintError) -> PassMintError { error }
}

/// How a job ends.
package enum JobEnd: Sendable {
    /// Its source had no more records.
    case completed
    /// Stopped on request between two chunks; a rerun resumes after the last committed one.
    case interrupted
    /// Stopped for a reason of its own that a committed chunk gave (`CommittedChunk.stop`).
    case stopped
}

extension ResumableJob where Committed.Stop == Never {
    package func error(stoppingFor reason: Never, after tally: Tally) -> Failure {}
}

/// What committing one chunk gave.
package protocol CommittedChunk {
    /// One record's outcome, as the report shows it.
    associatedtype Outcome: JobOutcome
    /// Why the job must end after this chunk (a full disk, say), for a job that can stop that way.
    associatedtype Stop = Never

    /// The outcome of each record of the chunk, in input order (one report line each).
    var outcomes: [Outcome] { get }
    /// Set when the job must end once this chunk is counted and reported.
    var stop: Stop? { get }
}

extension CommittedChunk where Stop == Never {
    package var stop: Never? { nil }
}

/// One record's outcome.
package protocol JobOutcome {
    /// The record's line of the JSON Lines report.
    var reportObject: [String: JSONValue] { get }
}

/// A job's totals.
package protocol JobTally {
    associatedtype Committed
    /// Counts one committed chunk.
    mutating func add(_ committed: Committed)
}
