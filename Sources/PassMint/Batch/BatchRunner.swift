import Foundation
import PassArchive
import PassModel
import PassSigning
import PassTemplates
import Synchronization

/// Issues one signed pass per CSV record, in parallel, in bounded memory.
///
/// Records are read as a stream and processed in windows of a few dozen per worker: each window is signed in
/// parallel and its report lines written in CSV order; its bundles and store rows are written by the workers
/// while they issue the next window.
public final class BatchRunner: Sendable {
    let options: BatchOptions
    let issuer: PassIssuer
    private let sink: (any IssuedPassSink)?
    private let csvName: String
    /// Stored with each pass so `serve` finds the template from any working directory.
    private let templateAbsolutePath: String
    /// The digest of the template's files, part of derived serial numbers.
    private let templateIdentity: String
    /// Where records' relative image paths start: the image folder when given, else the CSV's folder.
    private let imageFolder: String

    /// Loads the template and the signing identity (once for the whole batch).
    public init(options: BatchOptions, sink: (any IssuedPassSink)? = nil) throws(PassMintError) {
        self.options = options
        self.sink = sink
        if options.webServiceURL != nil, sink == nil {
            throw .webServiceURLWithoutStore
        }
        issuer = try PassFactory.issuer(
            templateDirectory: options.templateDirectory, identity: options.identity, trust: options.trustRoots,
            photos: options.photos)
        csvName = (options.csvPath as NSString).lastPathComponent
        templateIdentity = Self.identity(of: try PassFactory.templateSource(options.templateDirectory))
        templateAbsolutePath = URL(fileURLWithPath: options.templateDirectory).standardizedFileURL.path
        let csvFolder = (options.csvPath as NSString).deletingLastPathComponent
        imageFolder = options.imagesDirectory ?? (csvFolder.isEmpty ? "." : csvFolder)
    }

    /// Runs the batch. `progress` is called after every window; when `shouldStop` then returns true the batch ends
    /// there (report and bundles finished, `BatchSummary.interrupted` set).
    /// - Throws: before any pass is made when the header lacks a required column; environment errors (output
    ///   folder, report file, a full disk) at any time. Bad records are reported, not thrown.
    public func run(
        countRecords: Bool = false, shouldStop: () -> Bool = { false }, progress: (BatchProgress) -> Void = { _ in }
    ) throws(PassMintError) -> BatchSummary {
        let start = DispatchTime.now()
        try prepareOutputDirectory()
        let reader = try CSVReader(path: options.csvPath, format: options.csvFormat)
        guard let headerRecord = try reader.nextRecord() else {
            throw .csv(path: options.csvPath, .empty)
        }
        guard let header = headerRecord.fields else {
            throw .csv(path: options.csvPath, .unreadableHeader(headerRecord))
        }
        let columns = try checkHeader(
            header.map { $0.trimmingCharacters(in: .whitespaces) }, delimiter: reader.delimiter)
        let total = countRecords ? try Self.countRecords(options.csvPath, format: options.csvFormat) : nil
        let report = try options.reportPath.map { path throws(PassMintError) in try ReportWriter(path: path) }
        // Shards of one CSV may share an output folder: their bundles are named apart.
        let bundlePrefix = options.shard.map { "bundle-\($0.index)of\($0.count)-" } ?? "bundle-"
        let bundler = options.bundle ? BundleWriter(directory: options.outputDirectory, prefix: bundlePrefix) : nil
        if options.resume { ResumeCheck.removeStaleTemporaries(in: options.outputDirectory) }

        let records = BatchRecordIssuer(
            issuer: issuer, options: options, columns: columns, csvName: csvName, templateIdentity: templateIdentity,
            templateAbsolutePath: templateAbsolutePath, imageFolder: imageFolder)
        var source = BatchRecordSource(reader: reader, shard: options.shard, columns: columns)
        var tally = BatchTally()
        var outputs = WindowOutputs(bundler: bundler, report: report)
        var interrupted = false
        while true {
            let window = try source.nextWindow(Self.windowSize(jobs: options.jobs))
            if window.isEmpty { break }
            let found = try storedPasses(of: window, records: records)
            let (results, outputFailure) = process(window, with: records, stored: found, writing: outputs.pending)
            let stored = tally.add(results)
            outputs.next(results, rows: sink == nil ? [] : stored)
            try report?.append(results.map(\.outcome))
            progress(
                BatchProgress(
                    done: tally.records, failed: tally.failed, total: total, elapsed: Self.seconds(since: start)))
            if let outputFailure {
                // The window's passes are written and reported; a bundle or the store could not be.
                try? finish(&outputs, stopping: true)
                throw .batchStopped(.output(afterLine: tally.lastLine, outputFailure))
            }
            if let stop = results.first(where: \.environmentFailure) {
                // What was made so far is kept and reported; --resume continues from here once the cause is fixed.
                try? finish(&outputs, stopping: true)
                throw .batchStopped(.record(stop.outcome, issued: tally.issued + tally.resumed))
            }
            if !source.exhausted, shouldStop() {
                interrupted = true
                break
            }
        }
        try finish(&outputs)
        var summary = BatchSummary(
            records: tally.records, issued: tally.issued, updated: tally.updated, unchanged: tally.unchanged,
            resumed: tally.resumed, failed: tally.failed,
            bundles: outputs.bundlesFormed, elapsed: Self.seconds(since: start),
            warnings: issuer.identityWarnings + issuer.templateWarnings + columns.warnings, interrupted: interrupted,
            lastLine: tally.lastLine, firstFailures: tally.firstFailures)
        summary.invalidEncodingRecords = tally.invalidEncoding
        return summary
    }

    /// Records are issued a window at a time (the workers wait while the next window is read and the last one
    /// reported). Large windows keep that wait and the idle tail of each window small. With --bundle each result
    /// holds its archive until the window is bundled: as pieces, whose template images are the asset cache's own
    /// buffers, so a pass held costs a few KB and memory stays flat. Capped, so that an oversized --jobs cannot
    /// hold a large part of the CSV in memory.
    static func windowSize(jobs: Int) -> Int {
        min(16_384, max(16, jobs * 256))
    }

    /// Writes what is still pending (the last, partial bundle too) and moves the report into place. When the batch
    /// is `stopping` for an error of its own, a further output error is not allowed to hide it.
    private func finish(_ outputs: inout WindowOutputs, stopping: Bool = false) throws(PassMintError) {
        let last = outputs.remaining()
        if stopping {
            try? write(last)
            try? outputs.report?.finish()
        } else {
            try write(last)
            try outputs.report?.finish()
        }
    }

    /// What a window leaves to be written while the next one is issued.
    enum WindowOutput: Sendable {
        case bundle(BundleFile)
        case rows([IssuedPassRecord])
    }

    /// Issues one window's records on `options.jobs` threads; the same threads first write `outputs` (from the
    /// window before). Returns the records' results and the first output that could not be written.
    private func process(
        _ window: [CSVRecord], with records: BatchRecordIssuer, stored: [String: StoredIssue],
        writing outputs: [WindowOutput]
    ) -> (results: [BatchRecordIssuer.WorkResult], outputFailure: PassMintError?) {
        let results = Mutex<[BatchRecordIssuer.WorkResult?]>(Array(repeating: nil, count: window.count))
        let failure = Mutex<PassMintError?>(nil)
        inParallel(outputs.count + window.count) { i in
            if i < outputs.count {
                do throws(PassMintError) { try write(outputs[i]) } catch { failure.withLock { $0 = $0 ?? error } }
            } else {
                let record = window[i - outputs.count]
                let result = records.issue(record, stored: records.values(of: record).flatMap { stored[$0.serial] })
                results.withLock { $0[i - outputs.count] = result }
            }
        }
        return (results.withLock { $0.map { $0! } }, failure.withLock { $0 })
    }

    /// Writes outputs on `options.jobs` threads (the last ones, after the final window).
    private func write(_ outputs: [WindowOutput]) throws(PassMintError) {
        let failure = Mutex<PassMintError?>(nil)
        inParallel(outputs.count) { i in
            do throws(PassMintError) { try write(outputs[i]) } catch { failure.withLock { $0 = $0 ?? error } }
        }
        if let failure = failure.withLock({ $0 }) { throw failure }
    }

    /// Runs `job(0..<count)` on at most `options.jobs` threads, each index once, and returns when all are done.
    private func inParallel(_ count: Int, _ job: @Sendable (Int) -> Void) {
        guard count > 0 else { return }
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: min(options.jobs, count)) { _ in
            while true {
                let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard i < count else { return }
                job(i)
            }
        }
    }

    private func write(_ output: WindowOutput) throws(PassMintError) {
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

    /// The passes the store already holds under the window's serials (one query per window), so each record is
    /// issued with its stored pass's token. None without a store bound to a web service.
    private func storedPasses(of window: [CSVRecord], records: BatchRecordIssuer) throws(PassMintError)
        -> [String: StoredIssue]
    {
        guard let sink, options.webServiceURL != nil else { return [:] }
        let serials = window.compactMap { records.values(of: $0)?.serial }
        do { return try sink.storedPasses(serials: serials) } catch {
            throw .sink(
                .readingStoredPasses(lines: window[0].line...window[window.count - 1].line), underlying: error)
        }
    }

    /// A digest of a template's files (paths and contents), whatever folder holds them.
    static func identity(of source: TemplateSource) -> String {
        var material: [UInt8] = []
        for path in source.files.keys.sorted() {
            material += Array(path.utf8) + [0] + Array(Manifest.sha1Hex(source.files[path]!).utf8) + [0x0A]
        }
        return Manifest.sha1Hex(material)
    }

    private func prepareOutputDirectory() throws(PassMintError) {
        do {
            try FileManager.default.createDirectory(atPath: options.outputDirectory, withIntermediateDirectories: true)
        } catch {
            throw .outputFolder(path: options.outputDirectory, underlying: error)
        }
    }

    static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    /// The records of the CSV file after its header (for a progress bar's total).
    public static func countRecords(_ path: String, format: CSVFormat) throws(PassMintError) -> Int {
        let reader = try CSVReader(path: path, format: format)
        var n = -1
        while try reader.nextRecord() != nil { n += 1 }
        return max(0, n)
    }
}
