import PassModel

/// Words on the pass: no placeholder text left in a value, an "open the app" back field only with an
/// `appLaunchURL`, and a barcode whose message can also be read (a field or altText) for manual entry.
enum TextRules {
    static let placeholders = [
        "lorem ipsum", "todo", "tbd", "fixme", "xxx", "placeholder", "{{", "}}",
        "john doe", "jane doe", "your name", "sample text", "insert ", "changeme",
    ]

    static func checkPlaceholders(_ c: LintContext, into rows: inout [LintRow]) {
        // A template's values are written by its fields; only the text it carries itself can be forgotten.
        let isTemplate = c.source.template != nil
        for located in c.pass.fields {
            for (what, text) in [("value", located.field.value?.string), ("label", located.field.label)] {
                guard let text, let hit = placeholder(in: text, isTemplate: isTemplate) else { continue }
                if isTemplate, !literal(c, located.path + "." + what) { continue }
                rows.append(
                    LintRow(
                        LintCode.placeholderText, path: located.path + "." + what, before: LintContext.quote(text),
                        after: "\"\(what)\": the real text (remove “\(hit)”)",
                        change: "The holder sees real information instead of “\(hit)”"))
            }
        }
    }

    static func placeholder(in text: String, isTemplate: Bool) -> String? {
        let lower = text.lowercased()
        for word in placeholders {
            if isTemplate, word == "{{" || word == "}}" { continue }
            if word == "todo" || word == "tbd" || word == "xxx" || word == "fixme" {
                let tokens = lower.split { !$0.isLetter }
                if tokens.contains(Substring(word)) { return word.uppercased() }
                continue
            }
            if lower.contains(word) { return word }
        }
        return nil
    }

    /// True when the template's own pass.json has this text literally (not from a placeholder).
    static func literal(_ c: LintContext, _ path: String) -> Bool {
        guard let template = c.source.template else { return true }
        var value: JSONValue? = template.passJSON
        for part in path.split(separator: ".") {
            if let open = part.firstIndex(of: "["), let index = Int(part[part.index(after: open)...].dropLast()) {
                value = value?[String(part[..<open])]?.arrayValue?[safe: index]
            } else {
                value = value?[String(part)]
            }
        }
        guard let s = value?.stringValue else { return false }
        return !s.contains("{{")
    }

    static func checkAppLink(_ c: LintContext, into rows: inout [LintRow]) {
        guard c.pass.appLaunchURL == nil else { return }
        for (index, field) in (c.structure.backFields ?? []).enumerated() {
            let text = ((field.value?.string ?? "") + " " + (field.label ?? "")).lowercased()
            guard text.contains("app"),
                [
                    "open the app", "open our app", "in the app", "in our app", "open app",
                    "the app",
                ].contains(where: text.contains)
            else { continue }
            rows.append(
                LintRow(
                    LintCode.appLinkMissing, path: c.path(.backFields, index),
                    before:
                        "appLaunchURL \(LintRow.missing) (back field \(LintContext.quote(field.key ?? "")) says to open the app)",
                    after: "\"appLaunchURL\": \"yourapp://pass\", \"associatedStoreIdentifiers\": [YOUR_APP_STORE_ID]",
                    change:
                        "The pass shows your app's banner and opens the app with one tap, as the back field promises"))
            return
        }
    }

    static func checkBarcodeReadable(_ c: LintContext, into rows: inout [LintRow]) {
        let format = FieldFormatter(locale: nil, localizer: PassLocalizer(files: [:], locale: nil))
        let shown = c.pass.fields.flatMap { [format.value($0.field), $0.field.value?.description ?? ""] }
        for (index, barcode) in (c.pass.barcodes ?? []).enumerated() {
            guard let message = barcode.message, !message.isEmpty else { continue }
            if barcode.altText?.contains(message) == true || shown.contains(where: { $0.contains(message) }) {
                continue
            }
            rows.append(
                LintRow(
                    LintCode.barcodeNotReadable, path: "barcodes[\(index)].altText",
                    before: barcode.altText.map { LintContext.quote($0) } ?? LintRow.missing,
                    after: "\"altText\": \(LintContext.quote(message))",
                    change: "Staff can type the code in when the scanner fails, and older phones that cannot draw "
                        + "\(barcode.format?.rawValue ?? "the format") still show it"))
        }
    }
}
