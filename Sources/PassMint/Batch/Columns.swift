import PassTemplates

/// The CSV header checked against the template's fields.
struct Columns: Sendable {
    /// Header names in column order.
    let names: [String]
    /// Columns that feed the template (field names and `serialNumber`).
    let used: Set<String>
    /// One warning per unknown column.
    let warnings: [String]
}

extension BatchRunner {
    /// Unknown headers are warned about once; a required field with no default and no column stops the batch.
    func checkHeader(_ header: [String]) throws(PassMintError) -> Columns {
        let fields = issuer.template.fields
        // Reserved keys (serialNumber, barcode.message, relevantDate.start, image.SLOT, …) are columns too.
        let known = Set(issuer.template.recordKeys).union(header.filter(Template.isReservedKey))
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
        let unknown = header.filter { !known.contains($0) }
        let warnings = unknown.map { name in
            let hint = issuer.template.suggestion(forRecordKey: name).map { "; did you mean '\($0)'?" } ?? ""
            return "--csv: column '\(name)' is not a field of template \(issuer.template.directory)\(hint); it is ignored"
        }
        return Columns(names: header, used: known, warnings: warnings)
    }
}
