import Foundation
import PassMint
import PassPhotos
import PassStore
import PassOperations
import PassTemplates

/// `passmint update`: change a stored pass (or, with --csv, many), bump its tag and queue a push to every
/// registered device.
struct UpdateCommand: Command {
    static let set = RepeatedOption("set", "KEY=VALUE", "new value of a template field")
    static let add = RepeatedOption("add", "FIELD=N", "add N to an integer or decimal field (negative subtracts)")
    static let images = Option<String>("images", "DIR", "folder that image paths start at and must stay inside")
    static let void = Flag("void", "cancel the pass (voided: true), push it and stop its link")
    static let csv = Option<String>("csv", "FILE", "one row per pass: serialNumber and the fields to change")
    static let report = Option<String>("report", "FILE", "with --csv: a JSON Lines report, one object per row")
    static let resume = Flag("resume", "with --csv: continue after the rows an interrupted run of the same file stored")
    static let chunkSize = Option<Int>.integer("chunk-size", "N", "with --csv: rows per transaction (default 500)")

    static let spec = CommandSpec(
        name: "update",
        abstract:
            "change a stored pass (e.g. --set tier=Gold, --add points=10), or many from a CSV, and queue pushes to their devices",
        usage:
            "update SERIAL (--set key=value… | --add field=N… | --void) [--images DIR] [--db FILE | --postgres URL]\n"
            + "       passmint update --csv FILE [--report FILE] [--resume] [--chunk-size N] [--db FILE | --postgres URL]",
        discussion: """
            Validates the change against the pass's template, stores the new record with a new update tag and
            writes one push per registered device, all in one transaction. --add points=10 adds 10 to a number
            field (--add points=-10 subtracts): the amount is added to the value stored at the moment of the
            write, with the pass's row locked, so changes made at the same moment (other updates, the admin API)
            all count. --set points=+10 is refused: it would set points to 10. Results outside the template's
            minimum and maximum are refused. A change that leaves the pass as it was is reported "unchanged":
            no new tag, nothing pushed. A running `passmint serve` on the same
            database sends the pushes; phones then download the re-signed pass, and fields with a changeMessage
            show it (for example "You are now Gold"). --set image.thumbnail=FILE (or an image field) replaces the
            pass's photo: the new file is scaled and stored, relative to the current directory or --images DIR.
            --void cancels the card: the pass is re-signed with "voided": true (Wallet greys it out and hides its
            barcode), its devices are pushed, and its distribution link stops working. --set expirationDate=DATE
            (ISO 8601) makes Wallet show the pass as expired after DATE; --set expirationDate= restores the
            template's.
            With --csv FILE: one row per pass, a serialNumber column and one column per field to change (an
            empty cell keeps the stored value); a column add:FIELD (e.g. add:points) holds amounts to add. Each row is validated against its pass's template, and the first
            changed pass of each template and tier is rendered and signed as a check. A row that changes nothing
            bumps nothing and pushes nothing. Changes are stored in chunks (--chunk-size, default 500), each
            with its pushes and the job's position in one transaction. Ctrl-C (or SIGTERM) stops after the
            current chunk (exit 130); --resume then continues after the last stored chunk of the same file. A
            bad row is reported with its line and column and skipped. Exit 0 when no row failed, 1 when any did.
            """,
        options: [
            set,
            add,
            images,
            void,
            csv,
            report,
            resume,
            chunkSize,
        ] + CSVArguments.options + StoreArguments.options(dbHelp: StoreArguments.defaultFileHelp)
            + IdentityArguments.options,
        positionals: 0...1,
        examples: [
            "passmint update 3F2A9C… --set tier=Gold --set milesToNextTier=0 --db passmint.db",
            "passmint update 3F2A9C… --add points=10 --db passmint.db",
            "passmint update 3F2A9C… --void --db passmint.db",
            "passmint update --csv changes.csv --report changes.jsonl --db passmint.db",
        ]
    )

    enum Mode {
        case one(serial: String, change: RecordChange, voided: Bool?, imageFolder: String?)
        case csv(path: String, format: CSVFormat, report: String?, resume: Bool, chunkSize: Int)
    }

    let mode: Mode
    let store: StoreLocation
    let identity: IdentityOptions

    init(_ args: ParsedArguments) throws(CLIError) {
        store = try StoreArguments.location(args) ?? .sqlite(path: "passmint.db")
        identity = IdentityArguments.make(args)
        let changes = try args.keyValues(Self.set)
        let amounts = try args.keyValues(Self.add)
        if let path = args[Self.csv] {
            guard args.positionals.isEmpty, changes.isEmpty, amounts.isEmpty, args[Self.images] == nil,
                !args[Self.void]
            else {
                throw .usage(
                    "--csv FILE takes the serials and values from the file; give no SERIAL, --set, --add, --void or "
                        + "--images")
            }
            let chunkSize = try args[Self.chunkSize] ?? defaultBulkChunkSize
            guard chunkSize >= 1 else { throw .usage("--chunk-size needs at least 1 row") }
            mode = .csv(
                path: path, format: try CSVArguments.format(args), report: args[Self.report],
                resume: args[Self.resume], chunkSize: chunkSize)
            return
        }
        if args[Self.report] != nil { throw .usage("--report works with --csv FILE") }
        if args.given(Self.chunkSize) { throw .usage("--chunk-size works with --csv FILE") }
        if args[Self.resume] { throw .usage("--resume works with --csv FILE") }
        guard let serial = args.positionals.first else {
            throw .usage("give the SERIAL of the pass to change (with --set key=value or --add field=N), or --csv FILE")
        }
        let void = args[Self.void]
        guard !changes.isEmpty || !amounts.isEmpty || void else {
            throw .usage("nothing to change; give at least one --set key=value, --add field=N, or --void")
        }
        if let both = changes.keys.sorted().first(where: { amounts[$0] != nil }) {
            throw .usage("--set \(both)=… and --add \(both)=… both change \(both); give one of them")
        }
        mode = .one(
            serial: serial, change: RecordChange(values: changes, amounts: amounts), voided: void ? true : nil,
            imageFolder: args[Self.images])
    }

    func run() throws(CLIError) -> Int32 {
        do {
            let store = try StoreAccess.open(store)
            let renderer = TemplateRenderer(identity: try identity.load(), templates: store, photos: PhotoScaler())
            switch mode {
            case .one(let serial, let change, let voided, let imageFolder):
                let outcome: PassUpdater.Outcome
                do throws(OperationError) {
                    outcome = try PassUpdater.update(
                        serial: serial, change: change, voided: voided, store: store, renderer: renderer,
                        imageFolder: imageFolder)
                } catch {
                    throw Self.worded(error)
                }
                for field in outcome.fields {
                    var line = "\(field.field): \(field.from ?? "(unset)") → \(field.to)"
                    if let amount = change.amounts[field.field] { line += " (added \(amount))" }
                    print(line)
                }
                guard outcome.changed else {
                    print(
                        "unchanged \(outcome.serialNumber): the pass already has these values; no new tag, nothing pushed"
                    )
                    return 0
                }
                var line =
                    "updated \(outcome.serialNumber): tag \(outcome.tag), \(outcome.pushesQueued) push(es) queued"
                if outcome.pushesAlreadyPending > 0 {
                    line +=
                        "; \(outcome.pushesAlreadyPending) device(s) already have a push waiting, which fetches this "
                        + "version too"
                }
                print(line)
                return 0
            case .csv(let path, let format, let report, let resume, let chunkSize):
                return try runCSV(
                    path: path, format: format, report: report, resume: resume, chunkSize: chunkSize, store: store,
                    renderer: renderer)
            }
        } catch {
            throw CLIError(error)
        }
    }

    /// "+10" given to --set, worded with both options that could have been meant.
    static func worded(_ error: OperationError) -> CLIError {
        guard case .change(.value(.signedValue(let field, let value, _))) = error else { return error.cli }
        let number = String(value.drop { $0 == " " || $0 == "+" })
        return .invalid(
            "--set \(field)=\(value) would set \(field) to \(number), not add \(number) to it; write --set "
                + "\(field)=\(number) to set it, or --add \(field)=\(number) to add \(number) (nothing was changed)")
    }

    private func runCSV(
        path: String, format: CSVFormat, report: String?, resume: Bool, chunkSize: Int,
        store: any PassStore & BulkChangeStore, renderer: TemplateRenderer
    ) throws -> Int32 {
        let job = try BulkUpdater.jobIdentity(csvPath: path)
        let rows = try CSVBulkRows(path: path, format: format)
        let counting = isatty(STDERR_FILENO) == 1
        let total = counting ? try BatchRunner.countRecords(path, format: format) : nil
        let terminal = JobTerminal()
        let summary = try BulkUpdater(store: store, checker: renderer).run(
            rows, options: BulkUpdater.Options(job: job, resume: resume, chunkSize: chunkSize), reportPath: report,
            shouldStop: { terminal.stopRequested }
        ) { so in
            terminal.bar.update(BatchProgress(done: so.rows, failed: so.failed, total: total, elapsed: so.elapsed))
        }
        terminal.bar.finish()
        if resume {
            Console.error(
                summary.resumedFrom.map {
                    "update: resuming after line \($0) (\(summary.skipped) rows done by an earlier run)"
                }
                    ?? "update: no earlier run of this file stored a chunk; starting at the first row")
        }
        let seconds = max(summary.elapsed, 1e-9)
        var line = "update: \(summary.rows) rows, \(summary.changed) changed, \(summary.unchanged) unchanged, "
        line += "\(summary.failed) failed, \(summary.pushesQueued) pushes queued"
        line += String(
            format: " in %.2f s (%.0f rows/s, %.0f pushes queued/s)", summary.elapsed,
            Double(summary.rows - summary.skipped) / seconds, Double(summary.pushesQueued) / seconds)
        if summary.failed > 0 {
            line += report.map { "; see \($0) for the failures" } ?? "; rerun with --report FILE to see every failure"
        }
        Console.error(line)
        for failure in summary.failures.prefix(BatchSummary.failuresShown) {
            let column = failure.column.map { ", column \($0)" } ?? ""
            Console.error("  line \(failure.line)\(column): \(failure.problem?.description ?? "failed")")
        }
        if summary.failed > BatchSummary.failuresShown {
            Console.error("  … and \(summary.failed - BatchSummary.failuresShown) more")
        }
        if summary.interrupted {
            Console.error(
                "update: interrupted after line \(summary.position); every row up to it is stored — rerun the same "
                    + "command with --resume to continue")
        }
        return summary.exitStatus
    }
}
