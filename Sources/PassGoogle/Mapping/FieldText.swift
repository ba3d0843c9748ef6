import Foundation
import PassModel

/// A field's value as text, the way Wallet would show it: dates and numbers formatted by the field's styles (in
/// a language, for Google's translated values), strings as they are. Google's text modules hold plain strings,
/// so formatting happens here.
enum FieldText {
    /// The formatted value; `language` nil formats for the pass's default language.
    static func format(_ field: PassField, language: String?) -> String {
        guard let value = field.value else { return "" }
        let locale = Locale(identifier: language ?? LocalizedText.defaultLanguage)
        switch value {
        case .string(let text):
            guard field.dateStyle != nil || field.timeStyle != nil, let date = PassDate(parsing: text) else {
                return text
            }
            return formatDate(date, field: field, locale: locale)
        case .integer, .double:
            return formatNumber(value, field: field, locale: locale)
        }
    }

    static func formatDate(_ date: PassDate, field: PassField, locale: Locale) -> String {
        let instant = Date(timeIntervalSince1970: Double(date.epochSeconds))
        // The date's own offset: the venue's or the program's time, which is what the template wrote.
        let zone = TimeZone(secondsFromGMT: date.utcOffsetSeconds) ?? TimeZone(secondsFromGMT: 0)!
        var style = Date.FormatStyle(
            date: dateStyle(field.dateStyle), time: timeStyle(field.timeStyle), locale: locale,
            calendar: Calendar(identifier: .gregorian), timeZone: zone)
        style.locale = locale
        return instant.formatted(style)
    }

    private static func dateStyle(_ style: DateStyle?) -> Date.FormatStyle.DateStyle {
        switch style {
        case .short?: return .numeric
        case .medium?: return .abbreviated
        case .long?: return .long
        case .full?: return .complete
        default: return .omitted
        }
    }

    private static func timeStyle(_ style: DateStyle?) -> Date.FormatStyle.TimeStyle {
        switch style {
        case .short?, .medium?: return .shortened
        case .long?, .full?: return .standard
        default: return .omitted
        }
    }

    static func formatNumber(_ value: PassFieldValue, field: PassField, locale: Locale) -> String {
        let number = value.number ?? 0
        if let code = field.currencyCode, code.utf8.count == 3 {
            return number.formatted(.currency(code: code).locale(locale))
        }
        switch field.numberStyle {
        case .decimal?:
            if case .integer(let i) = value { return i.formatted(.number.locale(locale)) }
            return number.formatted(.number.locale(locale))
        case .percent?:
            return number.formatted(.percent.locale(locale))
        default:
            return value.description
        }
    }
}
