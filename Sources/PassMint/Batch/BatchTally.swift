/// What a batch has done so far: records by outcome, the first failures (for the summary), the last line tried.
struct BatchTally: JobTally {
    private(set) var records = 0
    private(set) var issued = 0
    private(set) var updated = 0
    private(set) var unchanged = 0
    private(set) var resumed = 0
    private(set) var failed = 0
    private(set) var firstFailures: [(line: Int, problem: BatchRecordProblem)] = []
    private(set) var lastLine = 0
    /// Records that failed because their bytes are not UTF-8.
    private(set) var invalidEncoding = 0

    /// Counts one window's results.
    mutating func add(_ window: BatchJob.Committed) {
        for result in window.outcomes {
            let outcome = result.outcome
            records += 1
            lastLine = outcome.line
            switch outcome.status {
            case .made(_, resumed: true):
                resumed += 1
            case .made(.issued, resumed: false):
                issued += 1
            case .made(.updated, resumed: false):
                updated += 1
            case .made(.unchanged, resumed: false):
                unchanged += 1
            case .failed(let problem):
                failed += 1
                if problem.isEncoding { invalidEncoding += 1 }
                if firstFailures.count < BatchSummary.failuresShown {
                    firstFailures.append((outcome.line, problem))
                }
            }
        }
    }
}
