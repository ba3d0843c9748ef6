import PassTemplates

/// The CSV header checked against the template's fields.
struct Columns: Sendable {
    /// Header names in column order.
    let names: [String]
    /// Columns that feed the template (field names, `serialNumber` and `image.SLOT`).
    let used: Set<String>
    /// One warning per unknown column.
    let warnings: [BatchWarning]
}

extension BatchRunner {
    /// Unknown headers are warned about once; a required field with no default and no column stops the batch.
    func checkHeader(_ header: [String], delimiter: CSVDelimiter = .comma) throws(PassMintError) -> Columns {
        let fields = issuer.template.fields
        // Reserved keys (serialNumber, barcode.message, relevantDate.start, image.SLOT, …) are columns too.
        let known = Set(issuer.template.recordKeys).union(header.filter(Template.isReservedKey))
        // A header that names no field at all is a file read wrongly (another separator, another file), not a
        // batch of members who all want the defaults.
        if !fields.isEmpty, !header.contains(where: { known.contains($0) }) {
            throw .csv(
                path: options.csvPath,
                .noTemplateColumn(
                    template: issuer.template.directory, delimiter: delimiter, header: header,
                    fields: fields.map(\.name)))
        }
        var seen = Set<String>()
        for name in header {
            guard seen.insert(name).inserted else {
                throw .csv(path: options.csvPath, .duplicateColumn(name))
            }
        }
        let missing = fields.filter { $0.required && $0.defaultValue == nil && !seen.contains($0.name) }.map(\.name)
        guard missing.isEmpty else {
            throw .csv(
                path: options.csvPath, .missingRequiredColumns(missing, template: issuer.template.directory))
        }
        // `image.SLOT` columns (reserved keys, in `known`) are per-record images; an unknown slot fails each record
        // with a did-you-mean.
        let used = known
        let unknown = header.filter { !used.contains($0) }
        let warnings = unknown.map { name in
            BatchWarning.unknownColumn(
                name, csv: options.csvPath, template: issuer.template.directory,
                suggestion: issuer.template.suggestion(forRecordKey: name))
        }
        return Columns(names: header, used: used, warnings: warnings)
    }
}
