import Foundation
import PassMint
import PassModel
import PassTemplates
import PassSigning
import PassStore

/// What a bulk update checks a changed row with: the template's validation, and a render of the new pass.
package protocol BulkRecordChecker: Sendable {
    /// The complete new record of `pass` with `change` applied (values set, amounts added to the stored ones), or
    /// the error that refuses it (`.change` naming the field and the reason; `.store` when the store fails).
    func validate(_ pass: StoredPass, change: RecordChange) throws(OperationError) -> [String: String]
    /// Passes with the same key render alike as far as a refusal goes (same template, same tier): one successful
    /// render stands for all of them.
    func renderKey(_ pass: StoredPass) -> String
    /// Renders and signs `pass` once; throws what would stop it reaching a phone.
    func renderCheck(_ pass: StoredPass) throws(OperationError)
}

extension TemplateRenderer: BulkRecordChecker {
    package func validate(_ pass: StoredPass, change: RecordChange) throws(OperationError) -> [String: String] {
        try validate(pass, change: change, allowImages: false)
    }

    package func renderKey(_ pass: StoredPass) -> String {
        let tierField = (try? issuer(for: pass.templatePath).template.tierField) ?? nil
        return TierRenderCheck.key(template: pass.templatePath, tier: tierField.flatMap { pass.record[$0] })
    }

    package func renderCheck(_ pass: StoredPass) throws(OperationError) {
        _ = try issue(pass)
    }
}

/// `update --csv` and `POST /admin/v1/updates`: one change per input row, validated against each pass's template,
/// applied through the bulk engine in chunks whose outbox rows and progress commit together.
///
/// - A row whose resolved record equals the stored one is *unchanged*: it goes to no chunk, bumps no tag and
///   queues no push. So a rerun of a finished (or killed) job pushes nothing for the rows already applied.
/// - A chunk's passes are read with their rows locked and its changes written in the same transaction, so an
///   amount (`add:points`) adds to the value stored at that moment and no concurrent change is overwritten.
/// - Every changed row is validated (`TemplateRenderer.validate`: unknown fields, types, enum values); the first
///   changed pass of each template and tier combination is also rendered and signed, so a value that makes an
///   unsignable pass fails its row before any phone sees it, without signing 100,000 passes.
/// - A bad row fails alone (reported with its line, and its column when one is at fault); the job goes on.
/// - With `resume`, rows up to the position the job last committed are skipped: the job's identity is the
///   input's content hash, recorded in the store that holds the passes.
package final class BulkUpdater {
    /// How a run goes.
    package struct Options: Sendable {
        /// The job's identity in the store's progress table (see `BulkUpdater.jobIdentity(csvPath:)`).
        package var job: String
        /// Skip the rows the job already committed.
        package var resume: Bool
        /// Rows per chunk (a chunk holds at most this many changes).
        package var chunkSize: Int

        package init(job: String, resume: Bool = false, chunkSize: Int = defaultBulkChunkSize) {
            self.job = job
            self.resume = resume
            self.chunkSize = max(1, chunkSize)
        }
    }

    /// What became of one row.
    package enum RowStatus: String, Sendable {
        case changed, unchanged, failed
    }

    /// One row's result, as the report line shows it.
    package struct RowOutcome: Sendable, Equatable {
        package var line: Int
        package var serialNumber: String
        package var status: RowStatus
        /// Outbox rows the change queued (0 when a pending push already covers the device).
        package var pushes: Int
        /// Why the row failed; nil unless `status` is `.failed`.
        package var problem: BulkRowProblem?
        /// The column (CSV) or key (JSON Lines) at fault, when one is.
        package var column: String?
    }

    /// Totals of a run (so far, when handed to `progress`).
    package struct Summary: Sendable {
        /// Rows read in this run (skipped ones included).
        package var rows = 0
        package var changed = 0
        package var unchanged = 0
        package var failed = 0
        /// Rows skipped because an earlier run of the job committed them (`resume`).
        package var skipped = 0
        package var pushesQueued = 0
        package var elapsed = 0.0
        /// Stopped at a chunk boundary because `shouldStop` said so.
        package var interrupted = false
        /// The job's committed position: the last input line done.
        package var position: Int64 = 0
        /// Where an earlier run had got to (`resume`), nil when it started at the beginning.
        package var resumedFrom: Int64?
        /// The first failed rows, at most `failuresKept`.
        package var failures: [RowOutcome] = []

        /// How many failed rows a summary keeps.
        package static let failuresKept = 100
    }

    private let store: any PassStore & BulkChangeStore
    private let checker: any BulkRecordChecker

    package init(store: any PassStore & BulkChangeStore, checker: any BulkRecordChecker) {
        self.store = store
        self.checker = checker
    }

    /// The job identity of a CSV file: `update-csv:` and the SHA-256 of its bytes, so the same content resumes
    /// the same job whatever the file is called, and an edited file starts a new one.
    /// - Throws: `.pipeline(.csv(…))` or `.csvUnreadable` naming the file when it cannot be read.
    package static func jobIdentity(csvPath: String) throws(OperationError) -> String {
        guard let handle = FileHandle(forReadingAtPath: csvPath) else {
            throw .pipeline(.csv(path: csvPath, .cannotOpen))
        }
        defer { try? handle.close() }
        // OpenSSL failing to digest is the machine's problem (out of memory), as `PassMintError.signing` says.
        var digest: SHA256Digest
        do { digest = try SHA256Digest() } catch { throw .pipeline(.signing(error)) }
        while true {
            let chunk: Data?
            do { chunk = try handle.read(upToCount: 1 << 20) } catch {
                throw .csvUnreadable(path: csvPath, underlying: error)
            }
            guard let chunk, !chunk.isEmpty else { break }
            do { try digest.update(chunk) } catch { throw .pipeline(.signing(error)) }
        }
        do { return "update-csv:" + (try digest.finish()) } catch { throw .pipeline(.signing(error)) }
    }

    /// Runs the job over `rows` on the job engine (`BulkUpdateJob`).
    /// - Parameters:
    ///   - reportPath: a JSON Lines report (`RowOutcome.reportObject` per row of this run), written to a temporary
    ///     name and renamed into place at the end.
    ///   - shouldStop: asked after each committed chunk; true ends the run there (`Summary.interrupted`).
    ///   - progress: called after each committed chunk with the totals so far.
    /// - Throws: `OperationError.store` when the store cannot be read or written (the chunks committed so far
    ///   stay, and a rerun with `resume` continues after them), `.pipeline` when the report cannot be written;
    ///   whatever reading the rows throws. Bad rows are reported, not thrown.
    package func run(
        _ rows: any BulkRowSource, options: Options, reportPath: String? = nil, shouldStop: () -> Bool = { false },
        progress: (Summary) -> Void = { _ in }
    ) throws(OperationError) -> Summary {
        let clock = JobClock()
        var summary = Summary()
        let report = try OperationError.fromPipeline { () throws(PassMintError) in
            try reportPath.map { path throws(PassMintError) in try ReportWriter(path: path) }
        }
        if options.resume {
            summary.resumedFrom = try BulkUpdateJob.storeCall(.readingBulkProgress) {
                try store.bulkPosition(job: options.job)
            }
            summary.position = summary.resumedFrom ?? 0
        }
        var job = BulkUpdateJob(
            rows: rows, options: options, store: store, checker: checker, resumedFrom: summary.resumedFrom)
        let run = try JobEngine.run(&job, tally: summary, report: report, clock: clock, shouldStop: shouldStop) {
            progress($0.summary)
        }
        return run.summary
    }
}

extension BulkUpdater.RowOutcome: JobOutcome {
    /// The report's JSON Lines object: line, serialNumber, status, pushes, error (and column).
    package var reportObject: [String: JSONValue] {
        var object: [String: JSONValue] = [
            "line": .integer(Int64(line)), "serialNumber": serialNumber.isEmpty ? .null : .string(serialNumber),
            "status": .string(status.rawValue), "pushes": .integer(Int64(pushes)),
            "error": problem.map { .string($0.description) } ?? .null,
        ]
        if let column { object["column"] = .string(column) }
        return object
    }
}

extension BulkUpdater.Summary: JobTally, JobSummary {
    /// Counts one committed chunk.
    package mutating func add(_ chunk: BulkUpdateJob.Committed) {
        rows += chunk.rowsRead
        skipped += chunk.rowsSkipped
        pushesQueued += chunk.pushesQueued
        if let position = chunk.position { self.position = position }
        for outcome in chunk.outcomes {
            switch outcome.status {
            case .changed: changed += 1
            case .unchanged: unchanged += 1
            case .failed:
                failed += 1
                if failures.count < Self.failuresKept { failures.append(outcome) }
            }
        }
    }
}

extension JobRun<BulkUpdater.Summary> {
    /// The totals with the time and the stop the engine kept beside them.
    fileprivate var summary: BulkUpdater.Summary {
        var summary = tally
        summary.elapsed = elapsed
        summary.interrupted = interrupted
        return summary
    }
}
