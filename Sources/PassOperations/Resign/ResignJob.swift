import PassMint
import PassModel
import PassStore

/// `resign` as a job of the engine: every stored pass in serial order, a page at a time, each page's passes given
/// a new tag and a push per device in one transaction with the job's position (passes done so far). A resumed job
/// skips the passes its stopped run did and reports them again, marked, so the finished report has every pass once.
struct ResignJob: ResumableJob {
    /// A pass re-signed, by this run or by the stopped run it resumes; one line of the report.
    struct Outcome: JobOutcome {
        let serialNumber: String
        let passTypeIdentifier: String
        /// Re-signed by the stopped run this one resumes.
        let resumed: Bool

        /// `{"serialNumber", "passTypeIdentifier", "status": "resigned"}`, `"resumed": true` when it is.
        var reportObject: [String: JSONValue] {
            var object: [String: JSONValue] = [
                "serialNumber": .string(serialNumber), "passTypeIdentifier": .string(passTypeIdentifier),
                "status": .string("resigned"),
            ]
            if resumed { object["resumed"] = .bool(true) }
            return object
        }
    }

    /// What committing a page did.
    struct Committed: CommittedChunk {
        var outcomes: [Outcome]
        /// Passes this run committed (the page's passes a stopped run had done are left out).
        var committed: Int
        /// Passes the store changed and outbox rows it wrote.
        var resigned: Int
        var pushesQueued: Int
    }

    /// The totals: passes done by this run and the runs it resumes, passes re-signed and pushes queued by this one.
    struct Tally: JobTally {
        var done: Int
        var resigned = 0
        var pushesQueued = 0

        mutating func add(_ page: Committed) {
            done += page.committed
            resigned += page.resigned
            pushesQueued += page.pushesQueued
        }
    }

    let store: any PassStore & BulkChangeStore
    /// The store, as messages name it.
    let location: StoreLocation
    /// The job's name in the store's progress table.
    let job: String
    let chunkSize: Int
    let total: Int
    /// Passes of the next pages a stopped run did (its position, in serial order).
    private var skip: Int
    /// Passes done so far, by this run and the runs it resumes: the position committed with each page.
    private var done: Int
    private var after: String?
    private(set) var exhausted = false

    init(
        store: any PassStore & BulkChangeStore, location: StoreLocation, job: String, chunkSize: Int, total: Int,
        startPosition: Int
    ) {
        self.store = store
        self.location = location
        self.job = job
        self.chunkSize = chunkSize
        self.total = total
        skip = startPosition
        done = startPosition
    }

    static func reportFailed(_ error: PassMintError) -> OperationError { .pipeline(error) }

    mutating func nextChunk() throws(OperationError) -> [StoredPass]? {
        let page: [StoredPass]
        do { page = try store.passes(after: after, limit: chunkSize, templatePath: nil) } catch {
            throw .store(.readingPassesToResign(store: location), underlying: error)
        }
        guard let last = page.last else {
            exhausted = true
            return nil
        }
        after = last.serialNumber
        return page
    }

    mutating func commit(_ page: [StoredPass]) throws(OperationError) -> Committed {
        // Resuming: the first `skip` passes in serial order were re-signed by the run that was stopped; the
        // report lists them again (its file did not survive a kill), marked as such.
        var outcomes = page.prefix(skip).map { Self.outcome($0, resumed: true) }
        let chunk = Array(page.dropFirst(skip))
        skip = max(0, skip - page.count)
        guard !chunk.isEmpty else { return Committed(outcomes: outcomes, committed: 0, resigned: 0, pushesQueued: 0) }
        let stored: ChunkOutcome
        do {
            stored = try store.applyChanges(
                chunk.map { PassChange(serialNumber: $0.serialNumber) },
                progress: BulkProgress(job: job, position: Int64(done + chunk.count)))
        } catch {
            throw .store(.resigning(done: done, total: total, store: location), underlying: error)
        }
        done += chunk.count
        outcomes += chunk.map { Self.outcome($0, resumed: false) }
        return Committed(
            outcomes: outcomes, committed: chunk.count, resigned: stored.passesChanged,
            pushesQueued: stored.pushesQueued)
    }

    private static func outcome(_ pass: StoredPass, resumed: Bool) -> Outcome {
        Outcome(serialNumber: pass.serialNumber, passTypeIdentifier: pass.passTypeIdentifier, resumed: resumed)
    }
}
