import Foundation
import PassModel

/// Turns a field's value into the text Wallet shows: dates by `dateStyle`/`timeStyle` (in the value's own zone
/// with `ignoresTimeZone`, else the viewer's), numbers by `numberStyle` or `currencyCode`, strings localized.
/// One formatter per preview; Foundation's formatters are created once here, never per field. Not `Sendable`:
/// each call reconfigures the shared formatters, so one formatter belongs to one card on one task.
public struct FieldFormatter {
    public let locale: Locale
    public let timeZone: TimeZone
    let localizer: PassLocalizer
    private let dateFormatter = DateFormatter()
    private let numberFormatter = NumberFormatter()

    /// A formatter for `locale` (an identifier such as `de`, `en_US`; `en_US` when nil) in `timeZone`.
    public init(locale: String?, timeZone: TimeZone = .current, localizer: PassLocalizer) {
        self.locale = Locale(identifier: locale ?? "en_US")
        self.timeZone = timeZone
        self.localizer = localizer
        dateFormatter.locale = self.locale
        numberFormatter.locale = self.locale
    }

    /// The shown text of `field`'s value (or attributedValue, markup removed).
    public func value(_ field: PassField) -> String {
        guard let value = field.attributedValue ?? field.value else { return "" }
        if field.attributedValue != nil, let s = value.string { return Self.stripTags(localizer(s)) }
        if let number = value.number { return format(number: number, field) }
        let text = value.string ?? value.description
        if field.dateStyle != nil || field.timeStyle != nil, let date = PassDate(parsing: text) {
            return format(date: date, field)
        }
        return localizer(text)
    }

    /// The shown label, localized; empty when there is none.
    public func label(_ field: PassField) -> String { localizer(field.label) ?? "" }

    /// A pass-level localizable string.
    public func text(_ s: String?) -> String? { localizer(s) }

    func format(date: PassDate, _ field: PassField) -> String {
        dateFormatter.dateStyle = Self.style(field.dateStyle)
        dateFormatter.timeStyle = Self.style(field.timeStyle)
        dateFormatter.timeZone =
            field.ignoresTimeZone == true ? TimeZone(secondsFromGMT: date.utcOffsetSeconds) ?? timeZone : timeZone
        return dateFormatter.string(from: Date(timeIntervalSince1970: TimeInterval(date.epochSeconds)))
    }

    func format(number: Double, _ field: PassField) -> String {
        if let code = field.currencyCode {
            numberFormatter.numberStyle = .currency
            numberFormatter.currencyCode = code
        } else {
            switch field.numberStyle {
            case .decimal?: numberFormatter.numberStyle = .decimal
            case .percent?: numberFormatter.numberStyle = .percent
            case .scientific?: numberFormatter.numberStyle = .scientific
            case .spellOut?: numberFormatter.numberStyle = .spellOut
            default: return field.value?.description ?? String(number)
            }
        }
        return numberFormatter.string(from: NSNumber(value: number)) ?? String(number)
    }

    static func style(_ s: DateStyle?) -> DateFormatter.Style {
        switch s {
        case .short?: return .short
        case .medium?: return .medium
        case .long?: return .long
        case .full?: return .full
        default: return .none
        }
    }

    /// Text without `<…>` tags (attributedValue allows only `<a href>`; the front shows plain text).
    static func stripTags(_ s: String) -> String {
        var out = ""
        var inTag = false
        for c in s {
            if c == "<" { inTag = true } else if c == ">" { inTag = false } else if !inTag { out.append(c) }
        }
        return out
    }
}
