import PassSigning
import PassStore
import PassOperations

/// `passmint templates list`: every published template name, its current version and its passes.
struct TemplatesListCommand: Command {

    static let spec = CommandSpec(
        name: "templates list",
        abstract: "list the stored templates: name, current version, passes, when published",
        usage: "templates list [--db FILE | --postgres URL]",
        discussion: """
            One line per template name: the current version's digest (first 12 hex digits), how many stored
            passes name a version of it (on the current version / in all), and when that version was published.
            Passes stored by an older PassMint with a folder path are listed under "unversioned".
            """,
        options: StoreArguments.options(dbHelp: StoreArguments.defaultFileHelp),
        examples: ["passmint templates list --db passmint.db"]
    )

    let store: StoreLocation

    init(_ args: ParsedArguments) throws(CLIError) {
        store = try StoreArguments.location(args) ?? .sqlite(path: "passmint.db")
    }

    func run() throws(CLIError) -> Int32 {
        let listing: TemplateListing
        do {
            listing = try TemplateListing.read(try StoreAccess.open(store))
        } catch {
            throw CLIError(error)
        }
        print("NAME\tCURRENT\tPASSES\tPUBLISHED")
        for row in listing.rows {
            print(
                "\(row.template.name)\t\(row.template.digest.prefix(12))\t\(row.currentPasses)/\(row.passes)\t"
                    + DateText.utc(row.template.publishedAt))
        }
        for usage in listing.unversioned {
            print("unversioned\t\(usage.template)\t\(usage.passes)\t-")
        }
        return 0
    }
}
