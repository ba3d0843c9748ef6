import Foundation
import PassMint
import PassPhotos
import PassSigning
import PassStore
import PassOperations

/// `passmint templates publish`: make a template folder the current version of a name and move its passes to it.
struct TemplatesPublishCommand: Command {
    static let dryRun = Flag("dry-run", "show what would change; change nothing")
    static let report = Option<String>("report", "FILE", "write a JSON Lines report, one object per moved pass")
    static let resume = Flag("resume", "continue a publish of the same folder that stopped")

    static let spec = CommandSpec(
        name: "templates publish",
        abstract: "make a template folder the current version of NAME, re-tag its passes and push them",
        usage:
            "templates publish NAME DIR [--dry-run] [--db FILE | --postgres URL] [--report FILE] [--resume]",
        discussion: """
            Passes issued with --db or --postgres name a stored, content-addressed version of their template
            (passmint-template:NAME@<sha-256>), so editing the folder afterwards changes nothing that is served.
            This command loads and checks DIR (every stored pass of NAME must resolve against it, and one pass per
            tier is rendered and signed with it; a broken template is refused before anything changes), shows
            what changes against the current version (files added, removed and changed; pass.json keys with
            old → new values; how many passes and device registrations it reaches) and, unless --dry-run, stores
            the version, makes it current and moves every pass of NAME to it in chunks: each chunk gets new tags
            and Last-Modified seconds and one push per registered device in one transaction. A running
            `passmint serve` on the same store sends the pushes.
            Passes of NAME are those stored with a version of NAME, and passes stored by an older PassMint with a
            folder path whose last component is NAME (without .pkpasstemplate/.zip): they are adopted.
            Publishing the same content again changes nothing. A publish that stopped (Ctrl-C stops after the
            chunk in progress, exit 130; killed, database gone) keeps the chunks it committed; rerun it with
            --resume to move the rest.
            """,
        options: [
            dryRun,
            report,
            resume,
        ] + StoreArguments.options(dbHelp: StoreArguments.defaultFileHelp) + IdentityArguments.options,
        positionals: 2...2,
        examples: [
            "passmint templates publish status Templates/status --dry-run --db passmint.db",
            "passmint templates publish status Templates/status --db passmint.db --report publish.jsonl",
        ]
    )

    let name: String
    let directory: String
    let dryRun: Bool
    let resume: Bool
    let reportPath: String?
    let store: StoreLocation
    let identity: IdentityOptions

    init(_ args: ParsedArguments) throws(CLIError) {
        name = args.positionals[0]
        directory = args.positionals[1]
        dryRun = args[Self.dryRun]
        resume = args[Self.resume]
        reportPath = args[Self.report]
        if dryRun, reportPath != nil { throw .usage("--report lists moved passes; a --dry-run moves none") }
        store = try StoreArguments.location(args) ?? .sqlite(path: "passmint.db")
        identity = IdentityArguments.make(args)
    }

    func run() throws(CLIError) -> Int32 {
        do {
            let store = try StoreAccess.open(store)
            let renderer = TemplateRenderer(identity: try identity.load(), templates: store, photos: PhotoScaler())
            let plan = try TemplatePublisher.plan(name: name, directory: directory, store: store, renderer: renderer)
            printPlan(plan)
            if plan.changesNothing {
                print("nothing to change: \(name) is at version \(plan.version.shortDigest) with all its passes")
                return 0
            }
            if dryRun {
                print("dry run: nothing was changed")
                return 0
            }
            if plan.needsResume, !resume, let done = plan.interruptedAfter {
                throw CLIError.invalid(
                    "an earlier publish of \(directory) as \(name) stopped after moving \(done) passes; rerun with "
                        + "--resume to move the remaining \(plan.passes)")
            }
            let terminal = JobTerminal()
            let outcome = try TemplatePublisher.publish(
                plan, store: store, reportPath: reportPath, shouldStop: { terminal.stopRequested })
            if outcome.stopped {
                Console.error(
                    "templates publish: interrupted after \(outcome.passesChanged) passes (\(outcome.pushesQueued) "
                        + "push(es) queued); rerun the same command with --resume to move the rest")
                return outcome.exitStatus
            }
            print(
                "published \(name) version \(plan.version.shortDigest): \(outcome.passesChanged) passes re-tagged, "
                    + "\(outcome.pushesQueued) push(es) queued")
            return 0
        } catch let error as any ReportedError {
            // DIR is a positional here: the message names it, no option leads it.
            throw error.category == .invalidInput ? .invalid(error.description) : .environment(error.cliText)
        } catch {
            throw CLIError(error)
        }
    }

    private func printPlan(_ plan: TemplatePublisher.Plan) {
        var head = "template \(name): version \(plan.version.shortDigest) from \(directory)"
        if let previous = plan.previous {
            head += plan.isCurrent ? " (the current version)" : ", current \(previous.digest.prefix(12))"
            head += " published \(DateText.utc(previous.publishedAt))"
        } else {
            head += " (first version of \(name))"
        }
        print(head)
        if plan.previous != nil, !plan.isCurrent {
            if plan.diff.isEmpty { print("  no file changes") }
            for change in plan.diff.files {
                switch change {
                case .added(let path): print("  added    \(path)")
                case .removed(let path): print("  removed  \(path)")
                case .changed(let path): print("  changed  \(path)")
                }
            }
            for key in plan.diff.keys {
                print("    \(key.file) \(key.key): \(key.old ?? "(none)") → \(key.new ?? "(removed)")")
            }
        }
        print("reaches \(plan.passes) pass(es) with \(plan.registrations) device registration(s)")
        for source in plan.sources {
            print("  \(source.passes) from \(source.template)")
        }
        if plan.needsResume, let done = plan.interruptedAfter {
            print("an earlier run of this publish moved \(done) pass(es) before it stopped")
        }
    }
}
