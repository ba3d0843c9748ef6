/// What a batch has done so far: records by outcome, the first failures (for the summary), the last line tried.
struct BatchTally {
    private(set) var records = 0
    private(set) var issued = 0
    private(set) var updated = 0
    private(set) var unchanged = 0
    private(set) var resumed = 0
    private(set) var failed = 0
    private(set) var firstFailures: [(line: Int, error: String)] = []
    private(set) var lastLine = 0
    /// Records that failed because their bytes are not UTF-8.
    private(set) var invalidEncoding = 0

    /// Counts one window's results; returns the store rows they carry, in CSV order.
    mutating func add(_ results: [BatchRecordIssuer.WorkResult]) -> [IssuedPassRecord] {
        var stored: [IssuedPassRecord] = []
        for result in results {
            records += 1
            lastLine = result.outcome.line
            if result.outcome.issued {
                if result.outcome.resumed {
                    resumed += 1
                } else {
                    switch result.outcome.kind {
                    case .issued: issued += 1
                    case .updated: updated += 1
                    case .unchanged: unchanged += 1
                    }
                }
            } else {
                failed += 1
                if result.invalidEncoding { invalidEncoding += 1 }
                if firstFailures.count < BatchSummary.failuresShown {
                    firstFailures.append((result.outcome.line, result.outcome.error ?? "failed"))
                }
            }
            if let record = result.stored { stored.append(record) }
        }
        return stored
    }
}
