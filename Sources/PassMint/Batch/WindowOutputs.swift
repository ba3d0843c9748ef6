/// What the batch still has to write besides the passes and the report: the bundles and store rows one window
/// produced (written by the workers while they issue the next window), and the bundler forming bundles in CSV
/// order.
struct WindowOutputs {
    private var bundler: BundleWriter?
    /// Whether issued passes go to a store.
    private let storing: Bool
    /// The outputs of the last window, to be written during the next one.
    private(set) var pending: [BatchJob.WindowOutput] = []

    init(bundler: BundleWriter?, storing: Bool) {
        self.bundler = bundler
        self.storing = storing
    }

    /// Bundles formed so far.
    var bundlesFormed: Int { bundler?.formed ?? 0 }

    /// Replaces `pending` with what `results` produce: the bundles they complete and their store rows, in CSV
    /// order.
    mutating func next(_ results: [BatchRecordIssuer.WorkResult]) {
        pending = (bundler?.bundles(adding: results) ?? []).map(BatchJob.WindowOutput.bundle)
        let rows = storing ? results.compactMap(\.stored) : []
        if !rows.isEmpty { pending.append(.rows(rows)) }
    }

    /// Everything still to write: `pending` and the last, partial bundle.
    mutating func remaining() -> [BatchJob.WindowOutput] {
        var last = pending
        if let partial = bundler?.remainder() { last.append(.bundle(partial)) }
        pending = []
        return last
    }
}
