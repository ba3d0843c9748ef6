import PassTemplates

/// The CSV header checked against the template's fields.
struct Columns: Sendable {
    /// Header names in column order.
    let names: [String]
    /// Columns that feed the template (field names, `serialNumber` and `image.SLOT`).
    let used: Set<String>
    /// One warning per unknown column.
    let warnings: [String]
}

extension BatchRunner {
    /// Unknown headers are warned about once; a required field with no default and no column stops the batch.
    func checkHeader(_ header: [String]) throws(PassMintError) -> Columns {
        let fields = issuer.template.fields
        let known = Set(fields.map(\.name)).union(["serialNumber"])
        var seen = Set<String>()
        for name in header {
            guard seen.insert(name).inserted else {
                throw .invalidInput("--csv: column '\(name)' appears twice in the header (line 1); remove one")
            }
        }
        let missing = fields.filter { $0.required && $0.defaultValue == nil && !seen.contains($0.name) }.map(\.name)
        guard missing.isEmpty else {
            throw .invalidInput(
                "--csv: the header (line 1) has no column for required field(s) \(missing.joined(separator: ", ")) of "
                    + "template \(issuer.template.directory); add the column(s) — no pass was made")
        }
        // `image.SLOT` columns are per-record images; an unknown slot fails each record with a did-you-mean.
        let images = header.filter { $0.hasPrefix(Template.imageKeyPrefix) }
        let used = known.union(images)
        let unknown = header.filter { !used.contains($0) }
        let warnings = unknown.map {
            "--csv: column '\($0)' is not a field of template \(issuer.template.directory); it is ignored"
        }
        return Columns(names: header, used: used, warnings: warnings)
    }
}
