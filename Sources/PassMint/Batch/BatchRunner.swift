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

    /// Loads the template and the signing identity (once for the whole batch).
    public init(options: BatchOptions, sink: (any IssuedPassSink)? = nil) throws(PassMintError) {
        self.options = options
        self.sink = sink
        if options.webServiceURL != nil, sink == nil {
            throw .invalidInput("--web-service-url needs --db FILE so the service can find the passes it issued")
        }
        issuer = try PassFactory.issuer(
            templateDirectory: options.templateDirectory, identity: options.identity, trust: options.trustRoots)
        csvName = (options.csvPath as NSString).lastPathComponent
        templateAbsolutePath = URL(fileURLWithPath: options.templateDirectory).standardizedFileURL.path
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
            throw .invalidInput("\(options.csvPath): the CSV file is empty; line 1 must name the template fields")
        }
        guard let header = headerRecord.fields else {
            throw .invalidInput("\(options.csvPath):1: the header cannot be read: \(headerRecord.error ?? "unreadable"); "
                + "line 1 must name the template fields")
        }
        let columns = try checkHeader(header.map { $0.trimmingCharacters(in: .whitespaces) }, delimiter: reader.delimiter)
        let total = countRecords ? try Self.countRecords(options.csvPath, format: options.csvFormat) : nil
        let report = try options.reportPath.map { path throws(PassMintError) in try ReportWriter(path: path) }
        // Shards of one CSV may share an output folder: their bundles are named apart.
        let bundlePrefix = options.shard.map { "bundle-\($0.index)of\($0.count)-" } ?? "bundle-"
        var bundler = options.bundle ? BundleWriter(directory: options.outputDirectory, prefix: bundlePrefix) : nil
        if options.resume { ResumeCheck.removeStaleTemporaries(in: options.outputDirectory) }

        // Records are issued a window at a time (the workers wait while the next window is read and the last one
        // reported). Large windows keep that wait and the idle tail of each window small. With --bundle each
        // result holds its archive until the window is bundled: as pieces, whose template images are the asset
        // cache's own buffers, so a pass held costs a few KB and memory stays flat.
        // Capped, so that an oversized --jobs cannot hold a large part of the CSV in memory.
        let window = min(16_384, max(16, options.jobs * 256))
        var index = 0
        var counts = (records: 0, issued: 0, resumed: 0, failed: 0)
        var firstFailures: [(line: Int, error: String)] = []
        var pending: [(line: Int, fields: [String]?, error: String?)] = []
        var finished = false
        var interrupted = false
        var lastLine = 0
        var serials = SerialNumbersSeen(column: columns.names.firstIndex(of: "serialNumber"))
        // What one window produced besides its passes (bundles, store rows) is written by the workers during the
        // next window.
        var outputs: [WindowOutput] = []
        // Writes what is still pending (the last, partial bundle too) and moves the report into place. When the
        // batch is stopping for an error of its own, a further output error is not allowed to hide it.
        func finishOutputs(stopping: Bool = false) throws(PassMintError) {
            if let last = bundler?.remainder() { outputs.append(.bundle(last)) }
            defer { outputs = [] }
            if stopping {
                try? write(outputs)
                try? report?.finish()
            } else {
                try write(outputs)
                try report?.finish()
            }
        }
        while !finished {
            pending.removeAll(keepingCapacity: true)
            while pending.count < window {
                guard let record = try reader.nextRecord() else { finished = true; break }
                defer { index += 1 }
                if let shard = options.shard, index % shard.count != shard.index - 1 { continue }
                if let duplicate = serials.duplicate(of: record, columns: columns) {
                    pending.append((record.line, nil, duplicate))
                    continue
                }
                pending.append((record.line, record.fields, record.error))
            }
            if pending.isEmpty { break }
            lastLine = pending[pending.count - 1].line
            let (results, outputFailure) = process(pending, columns: columns, outputs: outputs)
            outputs = (bundler?.bundles(adding: results) ?? []).map(WindowOutput.bundle)
            var stored: [IssuedPassRecord] = []
            for result in results {
                counts.records += 1
                if result.outcome.issued {
                    if result.outcome.resumed { counts.resumed += 1 } else { counts.issued += 1 }
                } else {
                    counts.failed += 1
                    if firstFailures.count < BatchSummary.failuresShown {
                        firstFailures.append((result.outcome.line, result.outcome.error ?? "failed"))
                    }
                }
                if let record = result.stored { stored.append(record) }
            }
            if sink != nil, !stored.isEmpty { outputs.append(.rows(stored)) }
            try report?.append(results.map(\.outcome))
            progress(BatchProgress(
                done: counts.records, failed: counts.failed, total: total, elapsed: Self.seconds(since: start)))
            if let outputFailure {
                // The window's passes are written and reported; a bundle or the store could not be.
                try finishOutputs(stopping: true)
                throw .environment(
                    "batch stopped after line \(lastLine): \(outputFailure); fix that and rerun with --resume (it "
                        + "re-checks the passes written so far and writes their bundles and store rows again)")
            }
            if let stop = results.first(where: \.environmentFailure) {
                // What was made so far is kept and reported; --resume continues from here once the cause is fixed.
                try finishOutputs(stopping: true)
                let issued = counts.issued + counts.resumed
                throw .environment(
                    "batch stopped at line \(stop.outcome.line) after \(issued) passes: \(stop.outcome.error ?? "an environment error"); "
                        + "fix that and rerun with --resume to issue the rest (the passes written so far are kept)")
            }
            if !finished, shouldStop() {
                interrupted = true
                break
            }
        }
        try finishOutputs()
        return BatchSummary(
            records: counts.records, issued: counts.issued, resumed: counts.resumed, failed: counts.failed,
            bundles: bundler?.formed ?? 0, elapsed: Self.seconds(since: start),
            warnings: issuer.identityWarnings + issuer.templateWarnings + columns.warnings, interrupted: interrupted, lastLine: lastLine,
            firstFailures: firstFailures)
    }

    /// One record's outcome plus what the window's writers need.
    struct WorkResult: Sendable {
        var outcome: BatchRecordResult
        var archive: ArchiveParts?
        var stored: IssuedPassRecord?
        /// Set when the record failed because of the machine, not the record (a full disk, a folder that is not
        /// writable): every later record would fail the same way, so the batch stops after this window.
        var environmentFailure = false
    }

    /// What a window leaves to be written while the next one is issued.
    enum WindowOutput: Sendable {
        case bundle(BundleFile)
        case rows([IssuedPassRecord])
    }

    /// Issues one window's records on `options.jobs` threads; the same threads first write `outputs` (from the
    /// window before). Returns the records' results and the first output that could not be written.
    private func process(
        _ records: [(line: Int, fields: [String]?, error: String?)], columns: Columns, outputs: [WindowOutput]
    ) -> (results: [WorkResult], outputFailure: PassMintError?) {
        let results = Mutex<[WorkResult?]>(Array(repeating: nil, count: records.count))
        let failure = Mutex<PassMintError?>(nil)
        inParallel(outputs.count + records.count) { i in
            if i < outputs.count {
                do throws(PassMintError) { try write(outputs[i]) } catch { failure.withLock { $0 = $0 ?? error } }
            } else {
                let result = issueOne(records[i - outputs.count], columns: columns)
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
                throw .environment(
                    "--db: storing \(rows.count) passes failed: \(error); check that the database file and its folder are writable and have room")
            }
        }
    }

    private func issueOne(_ input: (line: Int, fields: [String]?, error: String?), columns: Columns) -> WorkResult {
        func failed(_ serial: String?, _ message: String) -> WorkResult {
            WorkResult(
                outcome: BatchRecordResult(
                    line: input.line, serialNumber: serial, file: nil, issued: false, resumed: false, error: message),
                archive: nil, stored: nil)
        }
        guard let fields = input.fields else { return failed(nil, input.error ?? "unreadable record") }
        guard fields.count == columns.names.count else {
            return failed(nil, "has \(fields.count) fields but the header has \(columns.names.count); quote values that contain commas")
        }
        var record: [String: String] = [:]
        for (name, value) in zip(columns.names, fields) where columns.used.contains(name) && !value.isEmpty {
            record[name] = value
        }
        let serial = record.removeValue(forKey: "serialNumber") ?? stableSerial(line: input.line, fields: fields)
        guard IdentifierGrammar.serialNumber.accepts(serial) else {
            return failed(serial, "serialNumber '\(serial)' \(IdentifierGrammar.serialNumber.rule) (it names the file and the pass's URL)")
        }
        let fileName = "\(serial).pkpass"
        let path = "\(options.outputDirectory)/\(fileName)"
        if options.resume, let kept = ResumeCheck.validPass(at: path, trust: options.trustRoots) {
            // With --db the kept pass is stored again: a kill can fall between writing a window's files and storing
            // its rows. A kept pass that lacks this run's web service (or a token) cannot be served: issue it anew.
            let stored = options.webServiceURL.flatMap { resumedRecord(kept, path: path, serial: serial, record: record, url: $0) }
            if options.webServiceURL == nil || stored != nil {
                return WorkResult(
                    outcome: BatchRecordResult(
                        line: input.line, serialNumber: serial, file: fileName, issued: true, resumed: true, error: nil),
                    archive: options.bundle ? ArchiveParts(kept) : nil, stored: stored)
            }
        }
        let token = options.webServiceURL == nil ? nil : AuthenticationToken.generate()
        do {
            let pass = try issuer.issue(
                IssueRequest(
                    record: record, serialNumber: serial, webServiceURL: options.webServiceURL, authenticationToken: token,
                    compatiblePass: options.compatiblePass))
            try PassOutput.write(pass.archiveParts, to: path, durable: false)
            let stored = token.map {
                IssuedPassRecord(
                    serialNumber: pass.serialNumber, passTypeIdentifier: pass.passTypeIdentifier,
                    templateDirectory: templateAbsolutePath, record: pass.record, authenticationToken: $0,
                    webServiceURL: options.webServiceURL)
            }
            return WorkResult(
                outcome: BatchRecordResult(
                    line: input.line, serialNumber: serial, file: fileName, issued: true, resumed: false, error: nil),
                archive: options.bundle ? pass.archiveParts : nil, stored: stored)
        } catch {
            var result = failed(serial, error.description)
            result.environmentFailure = !error.isInvalidInput
            return result
        }
    }

    /// The store row of a pass an earlier run wrote (`pass`, the bytes of `path`): its own token, when it carries
    /// `url` as its web service.
    private func resumedRecord(_ pass: [UInt8], path: String, serial: String, record: [String: String], url: String)
        -> IssuedPassRecord?
    {
        guard let bytes = try? ArchiveReader(bytes: pass, name: path).read("pass.json"),
            let json = try? JSONReader.parse(bytes, file: path).value,
            json["webServiceURL"]?.stringValue == url,
            let token = json["authenticationToken"]?.stringValue, !token.isEmpty,
            var values = try? issuer.template.resolve(record).values
        else { return nil }
        if options.compatiblePass { values[IssueRequest.compatiblePassKey] = "true" }
        return IssuedPassRecord(
            serialNumber: serial, passTypeIdentifier: json["passTypeIdentifier"]?.stringValue ?? "",
            templateDirectory: templateAbsolutePath, record: values, authenticationToken: token, webServiceURL: url)
    }

    /// The same record in the same file always gets the same serial, so `--resume` finds its pass again.
    private func stableSerial(line: Int, fields: [String]) -> String {
        let material = "\(csvName)\n\(line)\n" + fields.joined(separator: "\u{1F}")
        // The first 24 hex digits, upper-cased byte-wise (only a-f change).
        let digits = Manifest.sha1Hex(Array(material.utf8)).utf8.prefix(24).map { $0 >= 0x61 ? $0 - 0x20 : $0 }
        return String(decoding: digits, as: UTF8.self)
    }

    private func prepareOutputDirectory() throws(PassMintError) {
        do {
            try FileManager.default.createDirectory(atPath: options.outputDirectory, withIntermediateDirectories: true)
        } catch {
            throw .environment("--out \(options.outputDirectory): cannot create the folder: \(error.localizedDescription)")
        }
    }

    static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    static func countRecords(_ path: String, format: CSVFormat) throws(PassMintError) -> Int {
        let reader = try CSVReader(path: path, format: format)
        var n = -1
        while try reader.nextRecord() != nil { n += 1 }
        return max(0, n)
    }
}

/// The `serialNumber` values a batch has met, to refuse a second record with the same one (its pass would replace
/// the first's file and row). Kept as 64-bit hashes with the first line: about 20 bytes per record.
struct SerialNumbersSeen {
    let column: Int?
    private var firstLine: [Int: Int] = [:]

    init(column: Int?) {
        self.column = column
    }

    /// The error for `record` when an earlier record has its serial number; nil otherwise (or when the record
    /// has no serial of its own: generated serials are unique).
    mutating func duplicate(of record: CSVRecord, columns: Columns) -> String? {
        guard let column, let fields = record.fields, fields.count == columns.names.count, !fields[column].isEmpty
        else { return nil }
        let serial = fields[column]
        if let first = firstLine[serial.hashValue] {
            return "serialNumber '\(serial)' is already used by the record on line \(first); every pass needs its own serial number"
        }
        firstLine[serial.hashValue] = record.line
        return nil
    }
}
