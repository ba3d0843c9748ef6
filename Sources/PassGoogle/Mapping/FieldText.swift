import Foundation
import PassModel
import Synchronization

/// A field's value as text, the way Wallet would show it: dates and numbers formatted by the field's styles (in
/// a language, for Google's translated values), strings as they are. Google's text modules hold plain strings,
/// so formatting happens here.
enum FieldText {
    /// The formatted value; `language` nil formats for the pass's default language.
    static func format(_ field: PassField, language: String?) -> String {
        guard let value = field.value else { return "" }
        if case .string(let text) = value, field.dateStyle == nil, field.timeStyle == nil { return text }
        if field.numberStyle == nil, field.currencyCode == nil, case .integer(let i) = value { return String(i) }
        // A template's dates and amounts are mostly the same on every pass (an expiry date, a price): each text is
        // formatted once, and Foundation's formatting stays off the per-member path.
        let key = FormatKey(
            value: value, dateStyle: field.dateStyle, timeStyle: field.timeStyle, numberStyle: field.numberStyle,
            currencyCode: field.currencyCode, language: language ?? LocalizedText.defaultLanguage)
        if let known = formatted.withLock({ $0[key] }) { return known }
        let made = formatUncached(value, field: field, language: key.language)
        formatted.withLock { cache in
            if cache.count >= maxFormatted { cache.removeAll(keepingCapacity: true) }
            cache[key] = made
        }
        return made
    }

    /// What a formatted text depends on.
    private struct FormatKey: Hashable {
        let value: PassFieldValue
        let dateStyle: DateStyle?
        let timeStyle: DateStyle?
        let numberStyle: NumberStyle?
        let currencyCode: String?
        let language: String
    }

    /// Texts kept at most; past it the cache starts over (per-member dates and amounts would grow it without end).
    private static let maxFormatted = 4096
    private static let formatted = Mutex<[FormatKey: String]>([:])

    private static func formatUncached(_ value: PassFieldValue, field: PassField, language: String) -> String {
        let locale = locales.locale(language)
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
        let styleNames = "\(field.dateStyle?.rawValue ?? "")|\(field.timeStyle?.rawValue ?? "")"
        let key = "\(locale.identifier)|\(styleNames)|\(date.utcOffsetSeconds)"
        // Styles are costly to make and the same for every pass of a template: made once per key.
        let style = styles.withLock { cache -> Date.FormatStyle in
            if let made = cache[key] { return made }
            // The date's own offset: the venue's or the program's time, which is what the template wrote.
            let zone = TimeZone(secondsFromGMT: date.utcOffsetSeconds) ?? TimeZone(secondsFromGMT: 0)!
            let made = Date.FormatStyle(
                date: dateStyle(field.dateStyle), time: timeStyle(field.timeStyle), locale: locale,
                calendar: Calendar(identifier: .gregorian), timeZone: zone)
            if cache.count < 256 { cache[key] = made }
            return made
        }
        return instant.formatted(style)
    }

    private static let styles = Mutex<[String: Date.FormatStyle]>([:])
    private static let locales = LocaleCache()

    /// Locales by identifier, made once.
    final class LocaleCache: Sendable {
        private let cache = Mutex<[String: Locale]>([:])
        func locale(_ identifier: String) -> Locale {
            cache.withLock { cache in
                if let made = cache[identifier] { return made }
                let made = Locale(identifier: identifier)
                if cache.count < 64 { cache[identifier] = made }
                return made
            }
        }
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
