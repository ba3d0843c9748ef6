import Foundation
import PassArchive
import PassModel
import PassSigning
import PassTemplates

/// Issues one signed pass per CSV record, in parallel, in bounded memory.
///
/// Records are read as a stream and processed in windows of a few hundred per worker (`BatchJob`, run by
/// `JobEngine`): each window is signed in parallel and its report lines written in CSV order; its bundles and
/// store rows are written by the workers while they issue the next window.
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
        if options.storeOnly {
            guard sink != nil, options.webServiceURL != nil else { throw .storeOnlyWithoutService }
            if options.bundle { throw .storeOnlyBundle }
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
        let clock = JobClock()
        if !options.storeOnly { try prepareOutputDirectory() }
        let reader = try CSVReader(path: options.csvPath, format: options.csvFormat)
        guard let headerRecord = try reader.nextRecord() else {
            throw .csv(path: options.csvPath, .empty)
        }
        let header: [String]
        switch headerRecord.content {
        case .fields(let fields):
            header = fields
        case .unreadable(let problem):
            throw .csv(path: options.csvPath, .unreadableHeader(problem))
        }
        let columns = try checkHeader(
            header.map { $0.trimmingCharacters(in: .whitespaces) }, delimiter: reader.delimiter)
        let total = countRecords ? try Self.countRecords(options.csvPath, format: options.csvFormat) : nil
        let report = try options.reportPath.map { path throws(PassMintError) in try ReportWriter(path: path) }
        // Shards of one CSV may share an output folder: their bundles are named apart.
        let bundlePrefix = options.shard.map { "bundle-\($0.index)of\($0.count)-" } ?? "bundle-"
        let bundler = options.bundle ? BundleWriter(directory: options.outputDirectory, prefix: bundlePrefix) : nil
        if options.resume, !options.storeOnly { ResumeCheck.removeStaleTemporaries(in: options.outputDirectory) }

        let records = BatchRecordIssuer(
            issuer: issuer, options: options, columns: columns, csvName: csvName, templateIdentity: templateIdentity,
            templateAbsolutePath: templateAbsolutePath, imageFolder: imageFolder)
        var job = BatchJob(
            workers: BatchWorkers(records: records, sink: sink, jobs: options.jobs),
            webServiceURL: options.webServiceURL, storeOnly: options.storeOnly,
            earlierSerials: try holdsPassesOfTemplate(),
            source: BatchRecordSource(reader: reader, shard: options.shard, columns: columns),
            outputs: WindowOutputs(bundler: bundler, storing: sink != nil))
        let run = try JobEngine.run(
            &job, tally: BatchTally(), report: report, clock: clock, shouldStop: shouldStop
        ) { run in
            progress(
                BatchProgress(done: run.tally.records, failed: run.tally.failed, total: total, elapsed: run.elapsed))
        }
        let tally = run.tally
        let warnings =
            issuer.identityWarnings.map(BatchWarning.identity) + issuer.templateWarnings.map(BatchWarning.template)
            + columns.warnings
        var summary = BatchSummary(
            records: tally.records, issued: tally.issued, updated: tally.updated, unchanged: tally.unchanged,
            resumed: tally.resumed, failed: tally.failed, bundles: job.outputs.bundlesFormed, elapsed: run.elapsed,
            warnings: warnings, interrupted: run.interrupted, lastLine: tally.lastLine,
            firstFailures: tally.firstFailures)
        summary.invalidEncodingRecords = tally.invalidEncoding
        return summary
    }

    /// A digest of a template's files (paths and contents), whatever folder holds them.
    static func identity(of source: TemplateSource) -> String {
        var material: [UInt8] = []
        for path in source.files.keys.sorted() {
            material += Array(path.utf8) + [0] + Array(Manifest.sha1Hex(source.files[path]!).utf8) + [0x0A]
        }
        return Manifest.sha1Hex(material)
    }

    /// Whether the store may hold passes of this template under serials an earlier version derived (it holds
    /// passes of this template at all): only then does each window look those serials up too.
    private func holdsPassesOfTemplate() throws(PassMintError) -> Bool {
        guard let sink, options.webServiceURL != nil else { return false }
        do { return try sink.holdsPasses(templateDirectory: templateAbsolutePath) } catch {
            throw .sink(.findingTemplatePasses, underlying: error)
        }
    }

    private func prepareOutputDirectory() throws(PassMintError) {
        do {
            try FileManager.default.createDirectory(atPath: options.outputDirectory, withIntermediateDirectories: true)
        } catch {
            throw .outputFolder(path: options.outputDirectory, underlying: error)
        }
    }

    /// The records of the CSV file after its header (for a progress bar's total).
    public static func countRecords(_ path: String, format: CSVFormat) throws(PassMintError) -> Int {
        let reader = try CSVReader(path: path, format: format)
        var n = -1
        while try reader.nextRecord() != nil { n += 1 }
        return max(0, n)
    }
}
