import PassModel

/// How lint rows are printed: one markdown table `| Before | After | What this changes |`, or JSON with the same
/// rows and each row's stable code and path.
public enum LintReport {
    /// The markdown table for `rows` (a header and one line per row); a line saying so when there are none.
    public static func markdown(_ rows: [LintRow]) -> String {
        guard !rows.isEmpty else { return "No design problems found.\n" }
        var out = "| Before | After | What this changes |\n|---|---|---|\n"
        for row in rows {
            out += "| \(cell(row.before)) | \(cell(row.after)) | \(cell(row.change)) |\n"
        }
        return out
    }

    /// `{"file", "rows": [{"code", "path", "before", "after", "change"}]}`.
    public static func json(file: String, rows: [LintRow]) -> JSONValue {
        .object([
            "file": .string(file),
            "rows": .array(
                rows.map { row in
                    .object([
                        "code": .string(row.code.rawValue), "path": .string(row.path), "before": .string(row.before),
                        "after": .string(row.after), "change": .string(row.change),
                    ])
                }),
        ])
    }

    /// A table cell: pipes escaped, line breaks as spaces.
    static func cell(_ s: String) -> String {
        s.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
