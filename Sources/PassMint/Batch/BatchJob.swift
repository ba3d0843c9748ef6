import Dispatch
import PassModel
import Synchronization

/// `batch` as a job of the engine: windows of CSV records, each record issued on `jobs` threads, which first write
/// the bundles and store rows of the window before; `finish` writes the last ones. A batch resumes from its files
/// (`--resume` keeps the passes a killed run left), so committing a window records no position.
struct BatchJob: ResumableJob {
    let workers: BatchWorkers
    /// Stored passes are looked up only for passes bound to a web service (they keep their tokens).
    let webServiceURL: String?
    /// Store-only issuance (`BatchOptions.storeOnly`): larger windows.
    let storeOnly: Bool
    /// The store holds passes of this template, some perhaps under serials an earlier version derived: those are
    /// looked up too.
    let earlierSerials: Bool
    var source: BatchRecordSource
    var outputs: WindowOutputs

    /// What a window leaves to be written while the next one is issued.
    enum WindowOutput: Sendable {
        case bundle(BundleFile)
        case rows([IssuedPassRecord])
    }

    /// Why a batch stops after a window: the machine failed, and every later record would fail alike.
    enum Stop {
        /// A bundle or the window's store rows could not be written.
        case outputs(PassMintError)
        /// A record failed for the machine (a full disk, a folder that is not writable).
        case record(line: Int, BatchRecordProblem)
    }

    /// One window's results, in CSV order.
    struct Committed: CommittedChunk {
        var outcomes: [BatchRecordIssuer.WorkResult]
        var stop: Stop?
    }

    var exhausted: Bool { source.exhausted }

    mutating func nextChunk() throws(PassMintError) -> [BatchInput]? {
        let window = try source.nextWindow(Self.windowSize(jobs: workers.jobs, storeOnly: storeOnly))
        return window.isEmpty ? nil : window
    }

    mutating func commit(_ window: [BatchInput]) throws(PassMintError) -> Committed {
        let values = workers.values(of: window)
        let found = try storedPasses(of: window, values: values)
        let (results, outputFailure) = workers.process(
            window, values: values, stored: found, writing: outputs.pending)
        outputs.next(results)
        // The window's passes are written and reported either way; a bundle or the store could not be.
        if let outputFailure { return Committed(outcomes: results, stop: .outputs(outputFailure)) }
        let failed = results.lazy.compactMap { result in
            result.outcome.problem.flatMap { $0.isEnvironment ? Stop.record(line: result.outcome.line, $0) : nil }
        }
        return Committed(outcomes: results, stop: failed.first)
    }

    /// Writes what is still pending (the last, partial bundle too). When the batch stopped for an error of its
    /// own, a further output error is not allowed to hide it.
    mutating func finish(_ end: JobEnd) throws(PassMintError) {
        let last = outputs.remaining()
        if end == .stopped {
            try? workers.write(last)
        } else {
            try workers.write(last)
        }
    }

    func error(stoppingFor reason: Stop, after tally: BatchTally) -> PassMintError {
        switch reason {
        case .outputs(let failure):
            return .batchStopped(.output(afterLine: tally.lastLine, failure))
        case .record(let line, let problem):
            // What was made so far is kept and reported; --resume continues from here once the cause is fixed.
            return .batchStopped(.record(line: line, problem, issued: tally.issued + tally.resumed))
        }
    }

    /// Records are issued a window at a time (the workers wait while the next window is read and the last one
    /// reported). Large windows keep that wait and the idle tail of each window small. With --bundle each result
    /// holds its archive until the window is bundled: as pieces, whose template images are the asset cache's own
    /// buffers, so a pass held costs a few KB and memory stays flat. Capped, so that an oversized --jobs cannot
    /// hold a large part of the CSV in memory. Store-only windows are larger: a record costs microseconds there,
    /// and each window's rows are one transaction.
    static func windowSize(jobs: Int, storeOnly: Bool = false) -> Int {
        min(16_384, max(16, jobs * (storeOnly ? 8_192 : 256)))
    }

    /// The passes the store already holds under the window's serials (one query per window), so each record is
    /// issued with its stored pass's token. None without a store bound to a web service.
    private func storedPasses(
        of window: [BatchInput], values: [BatchRecordIssuer.RecordValues?]
    ) throws(PassMintError) -> [String: StoredIssue] {
        guard let sink = workers.sink, webServiceURL != nil else { return [:] }
        let serials = values.flatMap { values -> [String] in
            guard let values else { return [] }
            // Also the serial an earlier version derived, where such passes may be stored.
            guard earlierSerials, let before = values.earlierSerial else { return [values.serial] }
            return [values.serial, before]
        }
        do { return try sink.storedPasses(serials: serials) } catch {
            throw .sink(
                .readingStoredPasses(lines: Self.line(of: window[0])...Self.line(of: window[window.count - 1])),
                underlying: error)
        }
    }

    private static func line(of input: BatchInput) -> Int {
        switch input {
        case .record(let record): return record.line
        case .refused(let line, _): return line
        }
    }
}

/// What a batch's worker threads do: issue a window's records and write the outputs of the window before.
struct BatchWorkers: Sendable {
    let records: BatchRecordIssuer
    let sink: (any IssuedPassSink)?
    /// Threads.
    let jobs: Int

    /// Issues one window's records on `jobs` threads; the same threads first write `outputs` (from the window
    /// before). Returns the records' results and the first output that could not be written.
    func process(
        _ window: [BatchInput], values: [BatchRecordIssuer.RecordValues?], stored: [String: StoredIssue],
        writing outputs: [BatchJob.WindowOutput]
    ) -> (results: [BatchRecordIssuer.WorkResult], outputFailure: PassMintError?) {
        let results = Mutex<[BatchRecordIssuer.WorkResult?]>(Array(repeating: nil, count: window.count))
        let failure = Mutex<PassMintError?>(nil)
        inParallel(outputs.count + window.count) { i in
            if i < outputs.count {
                do throws(PassMintError) { try write(outputs[i]) } catch { failure.withLock { $0 = $0 ?? error } }
            } else {
                let result = records.issue(window[i - outputs.count], values: values[i - outputs.count], stored: stored)
                results.withLock { $0[i - outputs.count] = result }
            }
        }
        return (results.withLock { $0.map { $0! } }, failure.withLock { $0 })
    }

    /// Writes outputs on `jobs` threads (the last ones, after the final window).
    func write(_ outputs: [BatchJob.WindowOutput]) throws(PassMintError) {
        let failure = Mutex<PassMintError?>(nil)
        inParallel(outputs.count) { i in
            do throws(PassMintError) { try write(outputs[i]) } catch { failure.withLock { $0 = $0 ?? error } }
        }
        if let failure = failure.withLock({ $0 }) { throw failure }
    }

    /// Runs `job(0..<count)` on at most `jobs` threads, each index once, and returns when all are done.
    private func inParallel(_ count: Int, _ job: @Sendable (Int) -> Void) {
        guard count > 0 else { return }
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: min(jobs, count)) { _ in
            while true {
                let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard i < count else { return }
                job(i)
            }
        }
    }

    private func write(_ output: BatchJob.WindowOutput) throws(PassMintError) {
        switch output {
        case .bundle(let bundle):
            try bundle.write()
        case .rows(let rows):
            guard let sink else { return }
            do { try sink.store(rows) } catch {
                throw .sink(.storingPasses(count: rows.count), underlying: error)
            }
        }
    }

    /// Each record's values and serial numbers (nil for a record that cannot be read), on `jobs` threads: the
    /// window's store lookup and its issuing both use them.
    func values(of window: [BatchInput]) -> [BatchRecordIssuer.RecordValues?] {
        let values = Mutex<[BatchRecordIssuer.RecordValues?]>(Array(repeating: nil, count: window.count))
        inParallel(window.count) { i in
            guard case .record(let record) = window[i], let made = records.values(of: record) else { return }
            values.withLock { $0[i] = made }
        }
        return values.withLock { $0 }
    }
}

extension BatchRecordIssuer.WorkResult: JobOutcome {
    var reportObject: [String: JSONValue] { outcome.reportObject }
}
