import PassMint
import PassModel
import PassStore

/// `templates publish` as a job of the engine: the passes of each stored template value the plan moves, a page
/// at a time, each page moved to the new version with its pushes and the job's position in one transaction; a
/// completed publish records `TemplatePublisher.finishedPosition`.
package struct PublishJob: ResumableJob {
    package typealias Tally = TemplatePublisher.Outcome

    /// A pass moved to the new version; one line of the report.
    package struct Moved: JobOutcome {
        let serialNumber: String
        /// The stored template value the pass had.
        let from: String
        let to: String

        /// `{"from", "serialNumber", "status": "moved", "to"}`.
        package var reportObject: [String: JSONValue] {
            [
                "serialNumber": .string(serialNumber), "from": .string(from), "to": .string(to),
                "status": .string("moved"),
            ]
        }
    }

    /// A page of passes of one stored template value.
    package struct Page {
        let from: String
        let passes: [StoredPass]
    }

    package struct Committed: CommittedChunk {
        package var outcomes: [Moved]
        var chunk: ChunkOutcome
    }

    let plan: TemplatePublisher.Plan
    let store: TemplatePublisher.Store
    let chunkSize: Int
    /// The stored template value whose passes are being moved (an index into `plan.sources`).
    private var source = 0
    private var after: String?
    /// Passes moved by this publish, the runs it resumes included: the position committed with each page.
    private var position: Int64
    /// Passes this run moved, for a message about a failure.
    private var moved = 0
    package private(set) var exhausted = false

    init(plan: TemplatePublisher.Plan, store: TemplatePublisher.Store, chunkSize: Int) {
        self.plan = plan
        self.store = store
        self.chunkSize = chunkSize
        position = plan.interruptedAfter ?? 0
    }

    package mutating func nextChunk() throws(OperationError) -> Page? {
        while source < plan.sources.count {
            let from = plan.sources[source].template
            let passes: [StoredPass]
            do { passes = try store.passes(after: after, limit: chunkSize, templatePath: from) } catch {
                throw Self.failure(plan, error, moved: moved)
            }
            if let last = passes.last {
                after = last.serialNumber
                return Page(from: from, passes: passes)
            }
            source += 1
            after = nil
        }
        exhausted = true
        return nil
    }

    package mutating func commit(_ page: Page) throws(OperationError) -> Committed {
        let target = plan.reference.description
        position += Int64(page.passes.count)
        let chunk: ChunkOutcome
        do {
            chunk = try store.applyChanges(
                page.passes.map { PassChange(serialNumber: $0.serialNumber, templatePath: target) },
                progress: BulkProgress(job: plan.job, position: position))
        } catch {
            throw Self.failure(plan, error, moved: moved)
        }
        moved += chunk.passesChanged
        return Committed(
            outcomes: page.passes.map { Moved(serialNumber: $0.serialNumber, from: page.from, to: target) },
            chunk: chunk)
    }

    /// A completed publish is recorded as finished, so a later publish of the same version is a new run.
    package mutating func finish(_ end: JobEnd) throws(OperationError) {
        guard end == .completed else { return }
        do {
            _ = try store.applyChanges(
                [], progress: BulkProgress(job: plan.job, position: TemplatePublisher.finishedPosition))
        } catch {
            throw Self.failure(plan, error, moved: moved)
        }
    }

    /// A store failure while publishing, with how far the publish got.
    static func failure(_ plan: TemplatePublisher.Plan, _ error: any Error, moved: Int) -> OperationError {
        .store(.publishing(reference: plan.reference.description, moved: moved), underlying: error)
    }

    package static func reportFailed(_ error: PassMintError) -> OperationError { .pipeline(error) }
}

extension TemplatePublisher.Outcome: JobTally {
    /// Counts one committed page.
    package mutating func add(_ page: PublishJob.Committed) {
        passesChanged += page.chunk.passesChanged
        pushesQueued += page.chunk.pushesQueued
    }
}
