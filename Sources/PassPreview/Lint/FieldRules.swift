import PassModel

/// Fields as the holder sees them: a primary value short enough to read at a glance, and no more fields in a
/// group than the style shows (Wallet drops the rest without a word). The counts are `PassValidator`'s
/// `pass.too-many-fields` findings, so lint and verify never disagree on a limit.
enum FieldRules {
    /// Characters a primary value shows at its size before Wallet shrinks or cuts it.
    static func glanceLength(_ style: PreviewStyle, index: Int, field: PassField) -> Int {
        switch style {
        case .boardingPass: return 5  // airport or station codes
        case .posterGeneric: return index == 0 && (field.label ?? "").isEmpty ? 24 : 18
        case .posterEventTicket: return 24
        case .storeCard, .coupon: return 12
        default: return 18
        }
    }

    /// - Parameter cut: paths of texts the preview cuts; those get a `text.truncated` row instead.
    static func checkPrimaryLength(
        _ c: LintContext, format: FieldFormatter, cut: Set<String>, into rows: inout [LintRow]
    ) {
        for (index, field) in (c.structure.primaryFields ?? []).enumerated()
        where !cut.contains(c.path(.primaryFields, index) + ".value") {
            let shown = format.value(field)
            let limit = glanceLength(c.style, index: index, field: field)
            guard shown.count > limit else { continue }
            let short = shortened(shown, to: limit)
            rows.append(
                LintRow(
                    LintCode.primaryTooLong, path: c.path(.primaryFields, index) + ".value",
                    before: LintContext.quote(shown) + " (\(shown.count) characters)",
                    after: "\"value\": \(LintContext.quote(short)), and the full text in a backFields field",
                    change: "The biggest text on the pass reads at a glance instead of shrinking or ending in “…” "
                        + "(about \(limit) characters fit)"))
        }
    }

    /// Whole words of `s` that fit in `limit` characters (or its first `limit` characters).
    static func shortened(_ s: String, to limit: Int) -> String {
        var out = ""
        for word in s.split(separator: " ") {
            let next = out.isEmpty ? String(word) : out + " " + word
            if next.count > limit { break }
            out = next
        }
        return out.isEmpty ? String(s.prefix(limit)) : out
    }

    static func checkOverflow(_ c: LintContext, into rows: inout [LintRow]) {
        let problems = PassValidator.validate(c.source.passJSON).filter { $0.code == PassProblemCode.tooManyFields }
        var seen = Set<String>()
        for problem in problems where seen.insert(problem.path).inserted {
            guard let groupName = problem.path.split(separator: ".").last,
                let group = PassFieldGroup(rawValue: String(groupName)),
                let style = PassStyle(rawValue: String(problem.path.split(separator: ".").first ?? "")),
                let structure = c.pass[style]
            else { continue }
            let layout = style == c.style.dictionary ? c.style : (PreviewStyle(rawValue: style.rawValue) ?? c.style)
            let square = (c.pass.barcodes?.first?.format).map { $0 == .qr || $0 == .aztec } ?? false
            let all = structure[group] ?? []
            let shown = layout.visible(group, in: structure, squareBarcode: square)
            var hidden = all.filter { f in !shown.contains { $0.key == f.key } }.compactMap(\.key)
            if hidden.isEmpty, let last = all.last?.key { hidden = [last] }
            let keys = all.compactMap(\.key)
            let kept = keys.filter { !hidden.contains($0) }
            rows.append(
                LintRow(
                    LintCode.fieldOverflow, path: problem.path,
                    before: "\(group.rawValue): " + keys.joined(separator: ", ") + " (\(keys.count) fields)",
                    after: "\(group.rawValue): " + kept.joined(separator: ", ") + "; move "
                        + hidden.joined(separator: ", ") + " to backFields",
                    change: "The holder sees " + hidden.joined(separator: ", ")
                        + " on the back instead of never (\(style.rawValue) silently drops fields past its limit)"))
        }
    }
}
