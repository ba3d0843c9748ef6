import PassModel

/// One `{{ name }}` found in a template, with where it is.
struct PlaceholderUse: Sendable, Equatable {
    let name: String
    let path: String
}

/// Finds and checks placeholders in JSON trees and strings.
enum PlaceholderScan {
    /// Every placeholder in the string values of `value` (object members visited in sorted key order, so the
    /// result is deterministic). Object keys are never substituted; a key containing `{{` adds a warning.
    /// - Throws: `TemplateError.malformedPlaceholder` naming `file` and the JSON path.
    static func uses(
        in value: JSONValue, path: String, file: String, warnings: inout [String]
    ) throws(TemplateError) -> [PlaceholderUse] {
        var out: [PlaceholderUse] = []
        try collect(value, path: path, file: file, into: &out, warnings: &warnings)
        return out
    }

    private static func collect(
        _ value: JSONValue, path: String, file: String, into out: inout [PlaceholderUse], warnings: inout [String]
    ) throws(TemplateError) {
        switch value {
        case .string(let s):
            out += try uses(in: s, path: path, file: file)
        case .array(let items):
            for (i, item) in items.enumerated() {
                try collect(item, path: TemplatePath.index(path, i), file: file, into: &out, warnings: &warnings)
            }
        case .object(let members):
            for key in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                let child = TemplatePath.member(path, key)
                if PlaceholderText.mayContainPlaceholder(key) {
                    warnings.append(
                        "\(file): \(child): the member name contains {{…}}; placeholders are only "
                            + "substituted in values, never in member names, so it stays as written")
                }
                try collect(members[key]!, path: child, file: file, into: &out, warnings: &warnings)
            }
        case .null, .bool, .integer, .double:
            break
        }
    }

    /// The placeholders in one string.
    static func uses(in s: String, path: String, file: String) throws(TemplateError) -> [PlaceholderUse] {
        guard PlaceholderText.mayContainPlaceholder(s) else { return [] }
        switch PlaceholderText.segments(s) {
        case .failure(let bad):
            throw .malformedPlaceholder(file: file, path: path, text: bad.text)
        case .success(let segments):
            return segments.compactMap { segment in
                if case .placeholder(let name) = segment { return PlaceholderUse(name: name, path: path) }
                return nil
            }
        }
    }

    /// Fails on the first use that names neither a field nor `serialNumber`.
    static func checkKnown(_ uses: [PlaceholderUse], fields: [String], file: String) throws(TemplateError) {
        let known = Set(fields)
        for use in uses where use.name != Template.serialNumberPlaceholder && !known.contains(use.name) {
            throw .unknownPlaceholder(
                file: file, path: use.path, name: use.name,
                suggestion: NearMiss.suggestion(for: use.name, in: fields + [Template.serialNumberPlaceholder]))
        }
    }
}
