import PassStore

/// `--template-name NAME` of the commands that issue into a store (`generate`, `batch`).
enum TemplateNameArgument {
    static let option = Option<String>(
        "template-name", "NAME",
        "name the stored template version goes by (default: the folder's name without .pkpasstemplate/.zip)")

    /// The name given, nil for the default; a usage error without a store (only stored passes name a version).
    static func value(_ args: ParsedArguments, store: StoreLocation?) throws(CLIError) -> String? {
        guard let name = args[option] else { return nil }
        guard store != nil else { throw .usage("--template-name needs --db FILE or --postgres URL") }
        return name
    }
}
