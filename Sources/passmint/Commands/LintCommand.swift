import PassModel
import PassPreview

/// `passmint lint`: a design review printed as one Before / After / What this changes table.
struct LintCommand: Command {
    static let json = Flag("json", "print JSON rows with stable codes instead of the table")
    static let set = RepeatedOption("set", "KEY=VALUE", "a template value, as generate takes it")

    static let spec = CommandSpec(
        name: "lint",
        abstract: "review a pass's design as a Before / After / What this changes table",
        usage: "lint TEMPLATE_DIR|FILE.pkpass… [--json] [--set K=V]…",
        discussion: """
            Prints one markdown table | Before | After | What this changes |: Before quotes the value now (or —),
            After is the exact replacement, the last column what the pass holder will see differently. A template
            is rendered with its defaults (and --set) and checked for contrast in every tier. Several inputs (or a
            .pkpasses) give one table per pass under a "## name" heading. --json prints
            {"file", "rows": [{"code", "path", "before", "after", "change"}]} per pass, one line each.
            Rules: contrast.foreground, contrast.label, contrast.image, field.primary-too-long, field.overflow,
            field.change-message-missing, field.change-message-no-value, relevance.missing, poster.incomplete,
            boarding.incomplete, field.number-format-conflict, image.missing-scale, image.wrong-size,
            text.placeholder, back.app-link-missing, barcode.not-readable,
            text.truncated (a text the preview cuts with "…", in pass.json's text or a localization's),
            localization.missing-keys.
            Exit status: 0 no rows, 1 rows printed (or the input cannot be read), 2 usage.
            """,
        options: [
            json,
            set,
        ],
        positionals: 1...Int.max,
        examples: ["passmint lint Templates/loyalty", "passmint lint --json pass.pkpass"]
    )

    let inputs: [String]
    let json: Bool
    let record: [String: String]

    init(_ args: ParsedArguments) throws(CLIError) {
        inputs = args.positionals
        json = args[Self.json]
        record = try args.keyValues(Self.set)
    }

    func run() throws(CLIError) -> Int32 {
        var results: [(name: String, rows: [LintRow])] = []
        for input in inputs {
            do {
                results += try PassLinter.lint(path: input, record: record)
            } catch {
                throw CLIError(error)
            }
        }
        for result in results {
            if json {
                print(JSONWriter.string(LintReport.json(file: result.name, rows: result.rows), pretty: false))
            } else {
                if results.count > 1 { print("## \(result.name)\n") }
                print(LintReport.markdown(result.rows), terminator: "")
            }
        }
        return results.contains { !$0.rows.isEmpty } ? 1 : 0
    }
}
