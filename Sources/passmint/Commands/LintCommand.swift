import PassGoogle
import PassModel
import PassPreview
import PassTemplates

/// `passmint lint`: a design review printed as one Before / After / What this changes table.
struct LintCommand: Command {
    static let json = Flag("json", "print JSON rows with stable codes instead of the table")
    static let set = RepeatedOption("set", "KEY=VALUE", "a template value, as generate takes it")

    static let spec = CommandSpec(
        name: "lint",
        abstract: "review a pass's design as a Before / After / What this changes table",
        usage: "lint TEMPLATE_DIR|FILE.pkpass… [--json] [--set K=V]… [--google]",
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
            --google adds what Google Wallet could not show as Apple Wallet does: google.unmapped (a key, image
            or barcode Google has no place for), google.style-fallback, google.long-text, google.not-shown,
            google.logo-not-square, and google.refused (what Google would refuse, with the reason).
            Exit status: 0 no rows, 1 rows printed (or the input cannot be read), 2 usage.
            """,
        options: [
            json,
            set,
            GoogleArguments.lintFlag,
        ],
        positionals: 1...Int.max,
        examples: ["passmint lint Templates/loyalty", "passmint lint --json pass.pkpass"]
    )

    let inputs: [String]
    let json: Bool
    let record: [String: String]
    let google: Bool

    init(_ args: ParsedArguments) throws(CLIError) {
        inputs = args.positionals
        json = args[Self.json]
        record = try args.keyValues(Self.set)
        google = args[GoogleArguments.lintFlag]
    }

    func run() throws(CLIError) -> Int32 {
        var results: [(name: String, rows: [LintRow])] = []
        for input in inputs {
            do {
                var linted = try PassLinter.lint(path: input, record: record)
                if google {
                    let sources = try PreviewSource.load(path: input, record: record)
                    for (index, source) in sources.enumerated() where index < linted.count {
                        linted[index].rows += Self.googleRows(source, record: record)
                    }
                }
                results += linted
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

    /// The google.* rows of one pass: a template's own, or a pass's read as a template of itself.
    static func googleRows(_ source: PreviewSource, record: [String: String]) -> [LintRow] {
        var files = source.files
        files["pass.json"] = JSONWriter.serialize(source.passJSON)
        guard let template = source.template ?? (try? Template.load(TemplateSource(name: source.name, files: files)))
        else { return [] }
        let passFiles = source.files.keys.sorted().map {
            PassFile(path: $0, bytes: source.files[$0]!, isSharedAsset: true)
        }
        return GoogleLint.rows(template: template, passJSON: source.passJSON, files: passFiles, record: record).map {
            LintRow(ProblemCode($0.code), path: $0.path, before: $0.before, after: $0.after, change: $0.change)
        }
    }
}
