import Foundation
import PassGoogle
import PassMint
import PassTemplates
import PassPhotos
import PassStore
import PassOperations

/// `passmint batch`: one signed pass per CSV record, in parallel, with a per-record report.
struct BatchCommand: Command {
    static let template = Option<String>(
        "template", "DIR", "template folder, .pkpasstemplate folder, or zipped .pkpasstemplate / .zip")
    static let csv = Option<String>(
        "csv", "FILE", "records, RFC 4180 CSV (header on line 1; separator and UTF-16 detected)")
    static let out = Option<String>(
        "out", "DIR", "output folder for <serial>.pkpass files (none: issue into the store only)")
    static let jobs = Option<Int>.integer("jobs", "N", "parallel signers (default: number of cores)")
    static let report = Option<String>("report", "FILE", "write a JSON Lines report, one object per record")
    static let images = Option<String>(
        "images", "DIR", "folder that image paths start at and must stay inside (default: the CSV's)")
    static let bundle = Flag("bundle", "also write .pkpasses bundles of at most 10 passes")
    static let resume = Flag(
        "resume", "skip records whose pass already exists, is valid and is what this run would make")
    static let startOver = Flag(
        "start-over",
        "with --db: issue stored serials as new passes with a new token (phones holding them get 401)")
    static let webServiceURL = Option<String>(
        "web-service-url", "URL", "update service base URL written into each pass (needs --db)")
    static let shard = Option<String>(
        "shard", "i/N", "only records i, i+N, i+2N… (1-based) so N machines split one CSV")
    static let compatible = Flag("compatible", "derive a generic fallback from posterGeneric for iOS 26 and earlier")

    static let spec = CommandSpec(
        name: "batch",
        abstract: "issue one signed pass per CSV record, in parallel, with a per-record report",
        usage:
            "batch --template DIR --csv FILE (--out DIR | --db FILE | --postgres URL) [--jobs N] [--report FILE] [--images DIR] [--bundle] [--resume] [--db FILE | --postgres URL] [--web-service-url URL] [--template-name NAME] [--start-over] [--shard i/N] [--compatible] [--google …]",
        discussion: """
            The CSV header names template fields (plus an optional serialNumber column and the other reserved
            keys: barcode.message, barcode.altText, relevantDate.start, relevantDate.end, expirationDate,
            image.SLOT; for a Pass Designer .pkpasstemplate, pass field keys). An unknown column is warned about once and ignored.
            Values are typed by template.json; a bad record is reported with its line number and skipped, the others are issued.
            Serial numbers not given in the CSV are derived from the template's content, the file name, line and
            values, so a rerun with --resume finds the passes a killed run already made and issues only the rest,
            and one CSV through two templates never writes the same file twice. --resume keeps a pass only when
            it is exactly what this run would make (same template version, values, token and web service);
            otherwise the record is issued again. A serialNumber used twice fails the later record.
            With --db, a serialNumber already stored is not replaced: its pass is issued again with its own
            authentication token, so the phones that hold it keep updating. A record with new values becomes an
            update (new tag, a push to each registered device, change messages on the phone; registrations,
            distribution link and install figures are kept); a record with the stored values is "unchanged"
            (nothing stored, nothing pushed). The report's status says issued, updated or unchanged.
            --start-over issues stored serials as new passes instead: new authentication token and new link. The
            phones that hold such a pass can no longer update it (the service answers them 401) and keep showing
            the old version until the holder adds the new pass.
            A progress bar (count, rate, ETA) is drawn when stderr is a terminal, one summary line otherwise.
            Ctrl-C (or SIGTERM) stops after the records in progress, with the report finished (exit 130); a second
            Ctrl-C stops at once.
            A column image.SLOT (e.g. image.thumbnail) or an image field of template.json gives each record its own
            photo (PNG or JPEG, scaled to the slot's sizes); relative paths start at the CSV's folder, or at
            --images DIR, and must stay inside it. A bad photo fails its record, reported with its line.
            Without --out, with --db or --postgres and --web-service-url, the batch issues into the store only:
            each record is typed and stored with its authentication token and distribution link (in the report),
            no .pkpass file is written, and `passmint serve` renders and signs each pass on its first download.
            The first record of each tier is rendered and signed as a check.
            --google also makes each pass's Google Wallet object (and the template's class) and adds
            "googleSaveUrl", its Save to Google Wallet link, to the record's report line; with --db the class and
            object are stored with the pass. A record whose Google object breaks Google's rules fails, reported
            with its line. Links carry the class while they fit in 1,800 characters; otherwise, offline, give
            --google-class-published once the class is at Google (see generate).
            Exit 0 when every record was issued, 1 when any failed.
            """,
        options: [
            template,
            csv,
            out,
            jobs,
            report,
            images,
            bundle,
            resume,
            startOver,
            webServiceURL,
            LinkArguments.option,
            shard,
            compatible,
            TemplateNameArgument.option,
        ] + CSVArguments.options + [TrustArguments.option] + GoogleArguments.options
            + StoreArguments.options(
                dbHelp:
                    "store issued passes in this SQLite database for `passmint serve` ($PASSMINT_DB with --web-service-url)"
            )
            + IdentityArguments.options,
        examples: [
            "passmint batch --template Templates/loyalty --csv members.csv --out passes/ --report report.jsonl",
            "passmint batch --template Templates/status --csv members.csv --out passes/ --db passmint.db --web-service-url https://passes.example.com",
            "passmint batch --template Templates/loyalty --csv members.csv --db passmint.db --web-service-url https://passes.example.com --report links.jsonl",
            "passmint batch --template Templates/status --csv members.csv --out passes/ --postgres postgresql://passmint@db.internal/passmint --web-service-url https://passes.example.com --shard 1/4",
        ]
    )

    var options: BatchOptions
    let store: StoreLocation?
    let templateName: String?
    let google: GoogleArguments?

    init(_ args: ParsedArguments) throws(CLIError) {
        var shard: (Int, Int)?
        if let text = args[Self.shard] {
            let parts = text.split(separator: "/").compactMap { Int($0) }
            guard parts.count == 2, parts[1] >= 1, (1...parts[1]).contains(parts[0]) else {
                throw .usage("--shard needs i/N with 1 ≤ i ≤ N, e.g. --shard 2/4; got '\(text)'")
            }
            shard = (parts[0], parts[1])
        }
        let format = try CSVArguments.format(args)
        // PASSMINT_DATABASE_URL names the service's store: only passes bound to the service go there.
        store = try StoreArguments.location(
            args,
            environment: args[Self.webServiceURL] == nil ? [:] : ProcessInfo.processInfo.environment)
        if args[Self.webServiceURL] != nil, store == nil {
            throw .usage("--web-service-url needs --db FILE or --postgres URL so `passmint serve` can find the passes")
        }
        templateName = try TemplateNameArgument.value(args, store: store)
        let out = args[Self.out]
        if out == nil {
            guard store != nil else {
                throw .usage(
                    "batch needs --out DIR for pass files, or --db FILE / --postgres URL to issue into a store")
            }
            guard args[Self.webServiceURL] != nil else {
                throw .usage(
                    "issuing into the store without --out needs --web-service-url: `passmint serve` renders each pass "
                        + "on its first download and the pass must name the service")
            }
            if args[Self.bundle] { throw .usage("--bundle needs --out DIR: bundles are made of pass files") }
        }
        options = BatchOptions(
            templateDirectory: try args.required(Self.template, of: Self.spec),
            csvPath: try args.required(Self.csv, of: Self.spec),
            outputDirectory: out ?? "",
            jobs: try args[Self.jobs] ?? ProcessInfo.processInfo.activeProcessorCount,
            reportPath: args[Self.report], bundle: args[Self.bundle], resume: args[Self.resume],
            webServiceURL: args[Self.webServiceURL], shard: shard, identity: IdentityArguments.make(args),
            csvFormat: format, compatiblePass: args[Self.compatible], imagesDirectory: args[Self.images])
        options.storeOnly = out == nil
        options.startOver = args[Self.startOver]
        if options.startOver, store == nil {
            throw .usage("--start-over replaces stored passes; give --db FILE or --postgres URL")
        }
        if options.startOver, options.resume {
            throw .usage("--start-over and --resume cannot be combined: a kept pass still carries its old token")
        }
        options.trustRoots = try TrustArguments.load(args)
        options.photos = PhotoScaler()
        options.linkBase = try LinkArguments.base(args)
        if options.linkBase != nil, options.webServiceURL == nil {
            throw .usage("--link-base needs --web-service-url and --db: batch stores only passes bound to the service")
        }
        google = try GoogleArguments(args, linkBase: options.linkBase, webServiceURL: options.webServiceURL)
        if google?.jsonPath != nil {
            throw .usage("--google-json writes one pass's class and object; it is for generate")
        }
        if google != nil, options.storeOnly {
            throw .usage("--google makes each record's Google object beside its pass file; give --out DIR")
        }
    }

    func run() throws(CLIError) -> Int32 {
        var options = options
        if let google {
            let template: Template
            do { template = try PassFactory.loadTemplate(options.templateDirectory) } catch { throw error.cli }
            let (links, warnings) = try google.links(for: template)
            for warning in warnings { Console.error("warning: \(warning)") }
            options.companion = GoogleCompanion(links: links)
        }
        do {
            var sink: (any IssuedPassSink)?
            if let store {
                // Once per run, before any pass: the template's version, which every stored pass then names.
                let issuance = try TemplateIssuance.prepare(
                    store: store, templatePath: options.templateDirectory, name: templateName)
                for warning in issuance.warnings { Console.error("warning: \(warning)") }
                sink = issuance.sink
            }
            let runner = try BatchRunner(options: options, sink: sink)
            let terminal = JobTerminal()
            let summary = try runner.run(countRecords: terminal.bar.enabled, shouldStop: { terminal.stopRequested }) {
                terminal.bar.update($0)
            }
            terminal.bar.finish()
            for warning in summary.warnings { Console.error("warning: \(warning)") }
            let made = summary.issued + summary.updated + summary.unchanged
            let rate = summary.elapsed > 0 ? Double(made) / summary.elapsed : 0
            var line = "batch: \(summary.records) records, \(summary.issued) issued, \(summary.updated) updated, "
            line += "\(summary.unchanged) unchanged, \(summary.resumed) already valid, \(summary.failed) failed"
            if summary.bundles > 0 { line += ", \(summary.bundles) bundles" }
            line += String(format: " in %.2f s (%.0f passes/s)", summary.elapsed, rate)
            if summary.failed > 0 {
                line +=
                    options.reportPath.map { "; see \($0) for the failures" } ?? "; rerun with --report FILE to see why"
            }
            Console.error(line)
            for failure in summary.firstFailures {
                Console.error("  line \(failure.line): \(failure.problem)")
            }
            if summary.failed > summary.firstFailures.count {
                Console.error("  … and \(summary.failed - summary.firstFailures.count) more")
            }
            if summary.invalidEncodingRecords > 0, options.csvFormat.encoding == nil {
                Console.error(
                    "hint: \(summary.invalidEncodingRecords) record(s) are not valid UTF-8; if a spreadsheet saved "
                        + "the file in a Western European encoding, rerun with --encoding windows-1252 (or latin1)")
            }
            if summary.interrupted {
                Console.error(
                    "batch: interrupted after line \(summary.lastLine); the passes and report so far are complete — "
                        + "rerun the same command with --resume to issue the rest")
            }
            return summary.exitStatus
        } catch let error as PassMintError {
            if case .batchStopped = error {
                throw .environment(error.cliText + " — rerun the same command with --resume")
            }
            throw CLIError(error)
        } catch {
            throw CLIError(error)
        }
    }
}
