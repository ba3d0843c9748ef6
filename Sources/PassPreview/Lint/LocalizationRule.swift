import Foundation
import PassModel
import PassTemplates

/// Every `xx.lproj/pass.strings` covers the same keys: the keys any other localization has, and, once a
/// localization translates some of the pass's field labels, all of them. Otherwise a holder reads a mix of
/// languages ("MITGLIED" next to "BEANS").
enum LocalizationRule {
    static func check(_ c: LintContext, into rows: inout [LintRow]) {
        var tables: [(language: String, keys: Set<String>, strings: [String: String])] = []
        for language in TruncationRule.localizations(c.source) {
            let file = "\(language).lproj/pass.strings"
            guard let bytes = c.source.files[file], let entries = try? PassStrings.parse(bytes, file: file) else {
                continue  // unreadable strings are verify's (and the template loader's) to report
            }
            var strings: [String: String] = [:]
            for entry in entries { strings[entry.key] = entry.value }
            tables.append((language, Set(strings.keys), strings))
        }
        guard !tables.isEmpty else { return }
        let union = tables.reduce(into: Set<String>()) { $0.formUnion($1.keys) }
        let labels = Set(c.pass.fields.compactMap(\.field.label).filter { $0.contains(where: \.isLetter) })
        for table in tables {
            var expected = union
            if !labels.isDisjoint(with: table.keys) { expected.formUnion(labels) }
            let missing = expected.subtracting(table.keys).sorted()
            guard let first = missing.first else { continue }
            let name = Locale(identifier: "en").localizedString(forLanguageCode: table.language) ?? table.language
            // A label this localization translates, shown beside one it does not.
            let translated = labels.intersection(table.keys).sorted().first
            let example =
                translated.flatMap { key in
                    table.strings[key].map {
                        " (\(name) holders see \(LintContext.quote($0)) next to \(LintContext.quote(first)))"
                    }
                } ?? ""
            rows.append(
                LintRow(
                    LintCode.localizationMissingKeys, path: "\(table.language).lproj/pass.strings",
                    before: "\(table.language).lproj lacks " + missing.map(LintContext.quote).joined(separator: ", ")
                        + example,
                    after: missing.map { "\(LintContext.quote($0)) = \"…\";" }.joined(separator: " "),
                    change: "\(name) holders read the whole pass in \(name), not a mix of languages"))
        }
    }
}
