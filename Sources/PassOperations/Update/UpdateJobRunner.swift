import Dispatch
import Foundation
import PassMint
import Synchronization
import PassStore
import PassLog

/// Runs the bulk updates sent to `POST /admin/v1/updates`, one at a time per instance on a thread of its own, with
/// `BulkUpdater` (the same checks and engine as `update --csv`). The job's status is written to the store when it
/// is accepted, after every chunk and at the end, so any instance on the database answers
/// `GET /admin/v1/updates/{id}`. A job whose instance dies stays `running`; its committed chunks are kept.
package final class UpdateJobRunner: Sendable {
    /// The body's format, from its `Content-Type`.
    package enum Format: Sendable {
        case csv, jsonLines
    }

    /// What became of a submitted job.
    package enum Submission: Sendable, Equatable {
        /// Recorded as `queued`; it starts after the jobs before it.
        case accepted(UpdateJobStatus)
        /// Not accepted: `waiting` jobs already wait, and their bodies are held in memory.
        case busy(waiting: Int)
    }

    private let store: any PassStore & BulkChangeStore & UpdateJobStore
    private let checker: any BulkRecordChecker
    private let onChunk: @Sendable () -> Void
    private let now: @Sendable () -> Date
    private let queue = DispatchQueue(label: "passmint.update-jobs")
    private let waiting = Atomic<Int>(0)
    /// Jobs accepted and not finished, at most (each holds its body until it has been read).
    package let maxWaiting: Int
    private let chunkSize: Int

    /// - Parameters:
    ///   - onChunk: called after each stored chunk (wake the pusher).
    ///   - now: the clock of the status times.
    package init(
        store: any PassStore & BulkChangeStore & UpdateJobStore, checker: any BulkRecordChecker,
        maxWaiting: Int = 4, chunkSize: Int = defaultBulkChunkSize,
        onChunk: @escaping @Sendable () -> Void = {}, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.checker = checker
        self.maxWaiting = max(1, maxWaiting)
        self.chunkSize = chunkSize
        self.onChunk = onChunk
        self.now = now
    }

    /// Records a new job as `queued` and starts it after the jobs before it, unless `maxWaiting` jobs wait.
    /// - Throws: a store error when the job cannot be recorded.
    package func submit(body: [UInt8], format: Format) throws -> Submission {
        guard waiting.wrappingAdd(1, ordering: .relaxed).newValue <= maxWaiting else {
            waiting.wrappingSubtract(1, ordering: .relaxed)
            return .busy(waiting: maxWaiting)
        }
        let created = now()
        let job = UpdateJobStatus(id: Self.newIdentifier(), state: .queued, createdAt: created, updatedAt: created)
        do { try store.saveUpdateJob(job) } catch {
            waiting.wrappingSubtract(1, ordering: .relaxed)
            throw error
        }
        queue.async { [self] in run(job, body: body, format: format) }
        return .accepted(job)
    }

    /// The stored status of job `id` (whichever instance runs it), nil for an unknown id.
    package func status(id: String) throws -> UpdateJobStatus? {
        try store.updateJob(id: id)
    }

    private func run(_ queued: UpdateJobStatus, body: [UInt8], format: Format) {
        var job = queued
        job.state = .running
        save(&job)
        var temporary: String?
        do {
            let rows: any BulkRowSource
            switch format {
            case .jsonLines:
                rows = JSONLinesBulkRows(bytes: body, name: "request body")
            case .csv:
                // The CSV reader streams from a file: the body goes to a private temporary one.
                let path = NSTemporaryDirectory() + "passmint-update-\(job.id).csv"
                guard
                    FileManager.default.createFile(
                        atPath: path, contents: Data(body), attributes: [.posixPermissions: 0o600])
                else {
                    throw OperationError.requestBodyUnwritable(path: path)
                }
                temporary = path
                rows = try CSVBulkRows(path: path, name: "request body")
            }
            let summary = try BulkUpdater(store: store, checker: checker).run(
                rows, options: BulkUpdater.Options(job: "update-job:\(job.id)", chunkSize: chunkSize),
                progress: { summary in
                    Self.copy(summary, into: &job)
                    save(&job)
                    if summary.pushesQueued > 0 { onChunk() }
                })
            Self.copy(summary, into: &job)
            job.state = .done
        } catch {
            job.state = .failed
            job.message = "\(error)"
        }
        // The body's copy is gone and the place is free before the final status is visible: a client that saw
        // `done` may send the next job at once.
        if let temporary { unlink(temporary) }
        waiting.wrappingSubtract(1, ordering: .relaxed)
        save(&job)
    }

    private func save(_ job: inout UpdateJobStatus) {
        job.updatedAt = now()
        do { try store.saveUpdateJob(job) } catch {
            ServiceLog.error("update job \(job.id): recording its status failed", error)
        }
    }

    private static func copy(_ summary: BulkUpdater.Summary, into job: inout UpdateJobStatus) {
        job.rows = summary.rows
        job.changed = summary.changed
        job.unchanged = summary.unchanged
        job.failed = summary.failed
        job.pushesQueued = summary.pushesQueued
        job.failures = summary.failures.map {
            UpdateJobStatus.Failure(line: $0.line, column: $0.column, message: $0.problem?.description ?? "failed")
        }
    }

    /// 128 random bits as 32 hex digits: job ids are not guessable, so one admin cannot stumble on another's.
    static func newIdentifier() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let value = generator.next() as UInt64
            let hex = String(value, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
