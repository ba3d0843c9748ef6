import Foundation
import PassModel
import PassTemplates

/// A field whose value changes (a template field `update` sets: the tier field, a number field, or one named
/// like tier, points, balance, miles, status, level or gate) needs a `changeMessage` with `%@`, or the holder
/// gets no notification when it changes.
enum ChangeMessageRule {
    static let changingWords = ["tier", "points", "balance", "miles", "status", "level", "gate", "credit", "reward"]

    static func check(_ c: LintContext, into rows: inout [LintRow]) {
        let english = PassLocalizer(files: c.source.files, locale: "en")
        let changing = changingTemplateFields(c.source.template)
        for style in c.pass.styles {
            guard let structure = c.pass[style] else { continue }
            for group in PassFieldGroup.allCases where group != .backFields && group != .additionalInfoFields {
                for (index, field) in (structure[group] ?? []).enumerated() {
                    guard let key = field.key,
                        changes(key: key, template: changing, raw: rawValue(c, style, group, index))
                    else { continue }
                    let path = "\(style.rawValue).\(group.rawValue)[\(index)].changeMessage"
                    // The label as an English reader sees it (it may be a pass.strings key).
                    let name = displayName(label: english(field.label), key: key)
                    let suggestion = "\(name): %@"
                    if let message = field.changeMessage {
                        guard !message.contains("%@") else { continue }
                        let fixed = message.hasSuffix(":") ? message + " %@" : message + ": %@"
                        rows.append(
                            LintRow(
                                LintCode.changeMessageNoValue, path: path, before: LintContext.quote(message),
                                after: "\"changeMessage\": \(LintContext.quote(fixed))",
                                change: "The notification says the new value of \(name), not just that something "
                                    + "changed"))
                    } else {
                        rows.append(
                            LintRow(
                                LintCode.changeMessageMissing, path: path, before: LintRow.missing,
                                after: "\"changeMessage\": \(LintContext.quote(suggestion))",
                                change:
                                    "The holder gets a lock-screen notification “\(name): …” when the value changes, "
                                    + "instead of a silent update"))
                    }
                }
            }
        }
    }

    /// What a notification calls the field, in sentence case: its label ("FREE DRINKS" → "Free drinks"), or its
    /// key in words ("loyaltyPoints" → "Loyalty points"). "Label: new value" reads well whatever the label is,
    /// plural or not, where "Your … is now" does not.
    static func displayName(label: String?, key: String) -> String {
        var words = (label ?? "").trimmingCharacters(in: .whitespaces)
        if words.isEmpty {
            // Split camelCase and snake_case keys into words.
            var spaced = ""
            for character in key {
                if character == "_" || character == "-" {
                    spaced += " "
                } else if character.isUppercase, let last = spaced.last, last.isLowercase || last.isNumber {
                    spaced += " " + character.lowercased()
                } else {
                    spaced.append(character)
                }
            }
            words = spaced.lowercased()
        } else if words == words.uppercased() {
            words = words.lowercased()  // an all-capitals label, as Wallet labels usually are
        }
        guard let first = words.first else { return key }
        return first.uppercased() + words.dropFirst()
    }

    /// The template fields an update is expected to change.
    static func changingTemplateFields(_ template: Template?) -> Set<String> {
        guard let template else { return [] }
        var out = Set<String>()
        for field in template.fields {
            let name = field.name.lowercased()
            if field.name == template.tierField || field.kind == .integer || field.kind == .decimal
                || changingWords.contains(where: name.contains)
            {
                out.insert(field.name)
            }
        }
        return out
    }

    /// The field's value as written in the template (placeholders still in), for templates.
    static func rawValue(_ c: LintContext, _ style: PassStyle, _ group: PassFieldGroup, _ index: Int) -> String? {
        c.source.template?.passJSON[style.rawValue]?[group.rawValue]?.arrayValue?[safe: index]?["value"]?.stringValue
    }

    static func changes(key: String, template: Set<String>, raw: String?) -> Bool {
        if let raw, !template.isEmpty {
            return template.contains { raw.contains("{{\($0)}}") || raw.contains("{{ \($0) }}") }
                || template.contains(key)
        }
        let lower = key.lowercased()
        return changingWords.contains(where: lower.contains)
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
