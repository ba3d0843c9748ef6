/// Renders help screens from the same specs the parser uses.
enum HelpRenderer {
    static func commandHelp(_ spec: CommandSpec) -> String {
        var out = "passmint \(spec.name) — \(spec.abstract)\n\nUsage: passmint \(spec.usage)\n"
        if !spec.discussion.isEmpty { out += "\n\(spec.discussion)\n" }
        if !spec.options.isEmpty {
            out += "\nOptions:\n"
            let rows = spec.options.map { o in
                ("--\(o.long)" + (o.valueName.map { " \($0)" } ?? ""), o.help + (o.repeatable ? " (repeatable)" : ""))
            }
            let width = min(34, (rows.map(\.0.count).max() ?? 0) + 2)
            for (left, right) in rows {
                let pad =
                    left.count < width
                    ? String(repeating: " ", count: width - left.count) : "\n  " + String(repeating: " ", count: width)
                out += "  \(left)\(pad)\(right)\n"
            }
            out += "  --help" + String(repeating: " ", count: max(1, width - 6)) + "show this help\n"
        }
        if !spec.examples.isEmpty {
            out += "\nExamples:\n" + spec.examples.map { "  \($0)\n" }.joined()
        }
        return out
    }

    static func overview(_ commands: [any Command.Type]) -> String {
        var out = """
            passmint — build, sign, verify and serve Apple Wallet passes

            Usage: passmint <command> [options]    (passmint <command> --help for details)

            Commands:

            """
        let width = (commands.map { $0.spec.name.count }.max() ?? 0) + 3
        for c in commands {
            out +=
                "  \(c.spec.name)" + String(repeating: " ", count: width - c.spec.name.count) + c.spec.abstract + "\n"
        }
        out += """

            Signing identity (commands that sign): --cert FILE --key FILE --wwdr FILE, or --p12 FILE with
            --password-env VAR; defaults to the folder $PASSMINT_CERT_DIR, else Certificates/dev/ (make it with
            `passmint certs dev`). Store: --db FILE or --postgres URL; defaults to $PASSMINT_DATABASE_URL, then
            $PASSMINT_DB, then passmint.db, so commands work from any folder.

            Exit codes: 0 success, 1 invalid input or pass, 2 usage error, 3 environment problem.

            """
        return out
    }
}
