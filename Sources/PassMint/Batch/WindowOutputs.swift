/// What the batch still has to write besides the passes: the bundles and store rows one window produced (written by
/// the workers while they issue the next window), the bundler forming bundles in CSV order, and the report.
struct WindowOutputs {
    private var bundler: BundleWriter?
    let report: ReportWriter?
    /// The outputs of the last window, to be written during the next one.
    private(set) var pending: [BatchRunner.WindowOutput] = []

    init(bundler: BundleWriter?, report: ReportWriter?) {
        self.bundler = bundler
        self.report = report
    }

    /// Bundles formed so far.
    var bundlesFormed: Int { bundler?.formed ?? 0 }

    /// Replaces `pending` with what `results` produce: the bundles they complete and their store `rows`.
    mutating func next(_ results: [BatchRecordIssuer.WorkResult], rows: [IssuedPassRecord]) {
        pending = (bundler?.bundles(adding: results) ?? []).map(BatchRunner.WindowOutput.bundle)
        if !rows.isEmpty { pending.append(.rows(rows)) }
    }

    /// Everything still to write: `pending` and the last, partial bundle.
    mutating func remaining() -> [BatchRunner.WindowOutput] {
        var last = pending
        if let partial = bundler?.remainder() { last.append(.bundle(partial)) }
        pending = []
        return last
    }
}
