import PassModel

/// Every text the preview cuts with "…" (a logo text, a label, a value too wide for its box), from the preview's
/// own layout: lint draws the front as `preview` does (`FrontCard.draw`), with pass.json's text and with each
/// localization, and reports each cut with the field and the characters that fit.
enum TruncationRule {
    /// One text the preview cuts.
    struct Cut {
        /// nil: pass.json's own text; else the `xx.lproj` it was drawn in.
        var locale: String?
        var text: ShownText
        /// The localization's `pass.strings` changed this text (a translation can be shortened); false for a value
        /// that shows the same in every language, such as a member's name from the record.
        var isTranslated: Bool
    }

    /// The cut texts of the front in pass.json's own text (locale nil, as `preview` draws it by default) and in
    /// each `xx.lproj` localization, each cut once (a localization adds the cuts its own texts and widths make).
    static func cuts(_ source: PreviewSource) -> [Cut] {
        var out: [Cut] = []
        var seen = Set<String>()
        var unlocalized: [String: String] = [:]
        for locale in [nil] + localizations(source) {
            guard let card = try? PassCard(source, options: PreviewOptions(locale: locale)) else { continue }
            let texts = FrontCard.draw(card).texts
            if locale == nil {
                for text in texts { unlocalized[text.path] = text.fitted.full }
            }
            for text in texts where text.fitted.isCut {
                // The same text cut at the same place is one row; a localization that cuts it elsewhere is another.
                let key = [text.path, text.fitted.full, text.fitted.shown].joined(separator: "\u{1F}")
                guard seen.insert(key).inserted else { continue }
                let translated = locale != nil && unlocalized[text.path] != text.fitted.full
                out.append(Cut(locale: locale, text: text, isTranslated: translated))
            }
        }
        return out
    }

    /// The languages of the pass's `xx.lproj` folders, sorted.
    static func localizations(_ source: PreviewSource) -> [String] {
        Set(
            source.files.keys.compactMap { path -> String? in
                let parts = path.split(separator: "/")
                guard parts.count == 2, parts[0].hasSuffix(".lproj") else { return nil }
                return String(parts[0].dropLast(".lproj".count))
            }
        ).sorted()
    }

    static func check(_ c: LintContext, cuts: [Cut], into rows: inout [LintRow]) {
        for cut in cuts {
            let (locale, text) = (cut.locale, cut.text)
            let fitted = text.fitted
            let fits = fitted.kept.count
            let what = text.key.map { "field \(LintContext.quote($0))" } ?? "logo text"
            let part = String(text.path.split(separator: ".").last ?? "")
            let short = FieldRules.shortened(fitted.full, to: fits)
            let field = c.fields.first { c.path($0.group, $0.index) + ".value" == text.path }?.field
            let after: String
            if let field, field.dateStyle != nil || field.timeStyle != nil {
                after =
                    "a shorter \"dateStyle\" or \"timeStyle\" (PKDateStyleShort; PKDateStyleNone leaves the time or "
                    + "the date out), or the field where it has more room"
            } else if locale == nil, TextRules.literal(c, text.path) {
                after = "\"\(part)\": \(LintContext.quote(short)) (\(fits) characters fit)"
            } else if let locale, cut.isTranslated {
                after =
                    "\(locale).lproj/pass.strings: a translation of at most \(fits) characters, such as "
                    + LintContext.quote(short)
            } else {
                after =
                    "values of at most \(fits) characters here (such as \(LintContext.quote(short))), or the "
                    + "field where it has more room: fewer fields in its row, or backFields"
            }
            rows.append(
                LintRow(
                    LintCode.textTruncated, path: text.path,
                    before: (locale.map { "\($0): " } ?? "") + "\(LintContext.quote(fitted.full)) shows as "
                        + "\(LintContext.quote(fitted.shown)) (\(what), \(fits) of \(fitted.full.count) characters fit)",
                    after: after,
                    change: "The holder reads \(LintContext.quote(fitted.full)) whole instead of "
                        + LintContext.quote(fitted.shown)))
        }
    }
}
