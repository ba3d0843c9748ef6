import PassModel
import PassTemplates

/// `passmint lint`: a design review of a pass or template, as rows of Before / After / What this changes.
/// It judges what the holder sees; whether Wallet accepts the pass is `verify`'s job, and where a row needs the
/// same fact as a verify rule (field counts, poster semantics) it takes it from `PassValidator`.
public enum PassLinter {
    /// Rows for one pass, in rule order: contrast, fields (cut texts among them), change messages, relevance,
    /// poster, Apple's validator's layout rules, images, text, localizations.
    public static func lint(_ source: PreviewSource) -> [LintRow] {
        guard let c = LintContext(source) else {
            return [
                LintRow(
                    PassProblemCode.noStyle, path: "", before: LintRow.missing,
                    after: "a style dictionary such as \"storeCard\": {…}",
                    change: "Wallet can show the pass at all")
            ]
        }
        var rows: [LintRow] = []
        let localizer = PassLocalizer(files: source.files, locale: nil)
        let cuts = TruncationRule.cuts(source)
        ContrastRule.check(c, into: &rows)
        FieldRules.checkPrimaryLength(
            c, format: FieldFormatter(locale: nil, localizer: localizer), cut: Set(cuts.map(\.text.path)), into: &rows)
        TruncationRule.check(c, cuts: cuts, into: &rows)
        FieldRules.checkOverflow(c, into: &rows)
        ChangeMessageRule.check(c, into: &rows)
        RelevanceRule.check(c, into: &rows)
        PosterRule.check(c, into: &rows)
        AppleLayoutRule.check(c, into: &rows)
        ImageRule.check(c, into: &rows)
        TextRules.checkPlaceholders(c, into: &rows)
        TextRules.checkAppLink(c, into: &rows)
        TextRules.checkBarcodeReadable(c, into: &rows)
        LocalizationRule.check(c, into: &rows)
        return rows
    }

    /// Lints a .pkpass (each pass of a .pkpasses) or a template rendered with `record`; a template with tiers is
    /// also checked for contrast in every tier's colours (those rows' paths name the tier).
    /// - Throws: `PreviewError` when the file cannot be read or the template not rendered.
    public static func lint(path: String, record: [String: String] = [:]) throws(PreviewError) -> [(
        name: String, rows: [LintRow]
    )] {
        let sources = try PreviewSource.load(path: path, record: record)
        var out: [(String, [LintRow])] = []
        for source in sources {
            var rows = lint(source)
            if let template = source.template, let tierField = template.tierField {
                for tier in template.tiers.keys.sorted() where record[tierField] != tier {
                    guard let tiered = try? PreviewSource.rendered(template, record: record, tier: tier),
                        let c = LintContext(tiered)
                    else { continue }
                    var tierRows: [LintRow] = []
                    ContrastRule.check(c, into: &tierRows)
                    for var row in tierRows {
                        row.path = "tiers.values.\(tier).pass.\(row.path)"
                        row.before = "tier \(tier): " + row.before
                        if !rows.contains(where: { $0.code == row.code && $0.before == row.before }) {
                            rows.append(row)
                        }
                    }
                }
            }
            out.append((source.name, rows))
        }
        return out
    }
}
