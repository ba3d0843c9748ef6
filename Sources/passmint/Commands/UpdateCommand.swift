import PassMint
import PassService

/// `passmint update`: change a stored pass, bump its tag and queue a push to every registered device.
struct UpdateCommand: Command {
    static let spec = CommandSpec(
        name: "update",
        abstract: "change a stored pass (e.g. --set tier=Gold) and queue pushes to its devices",
        usage: "update SERIAL --set key=value… [--images DIR] [--db FILE | --postgres URL]",
        discussion: """
            Validates the change against the pass's template, stores the new record with a new update tag and
            writes one push per registered device, all in one transaction. A running `passmint serve` on the same
            database sends the pushes; phones then download the re-signed pass, and fields with a changeMessage
            show it (for example "You are now Gold"). --set image.thumbnail=FILE (or an image field) replaces the
            pass's photo: the new file is scaled and stored, relative to the current directory or --images DIR.
            """,
        options: [
            .value("set", "KEY=VALUE", "new value of a template field", repeatable: true),
            .value("images", "DIR", "folder that image paths start at and must stay inside"),
        ] + StoreArguments.options(dbHelp: "SQLite store (default passmint.db)") + IdentityArguments.options,
        positionals: 1...1,
        examples: ["passmint update 3F2A9C… --set tier=Gold --set milesToNextTier=0 --db passmint.db"]
    )

    let serial: String
    let changes: [String: String]
    let store: StoreLocation
    let identity: IdentityOptions
    let imageFolder: String?

    init(_ args: ParsedArguments) throws(CLIError) {
        serial = args.positionals[0]
        store = try StoreArguments.location(args, of: Self.spec) ?? .sqlite(path: "passmint.db")
        identity = IdentityArguments.make(args)
        imageFolder = args.value("images")
        let changes = try args.keyValues("set", of: Self.spec)
        guard !changes.isEmpty else { throw .usage("nothing to change; give at least one --set key=value") }
        self.changes = changes
    }

    func run() throws(CLIError) -> Int32 {
        do {
            let store = try StoreAccess.open(store)
            let renderer = TemplateRenderer(identity: try identity.load(), templates: store)
            let outcome = try PassUpdater.update(
                serial: serial, changes: changes, store: store, renderer: renderer, imageFolder: imageFolder)
            for change in outcome.changed {
                print("\(change.field): \(change.from ?? "(unset)") → \(change.to)")
            }
            print("updated \(outcome.serialNumber): tag \(outcome.tag), \(outcome.pushesQueued) push(es) queued")
            return 0
        } catch {
            throw error.cli
        }
    }
}
