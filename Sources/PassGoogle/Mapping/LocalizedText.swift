import PassModel
import PassTemplates

/// The pass's `xx.lproj/pass.strings` tables, for Google's translated values: Wallet looks a label or a string
/// value up by its text in the holder's language; Google wants every language's text up front.
struct LocalizedText: Sendable {
    /// The language of texts as pass.json has them (Apple passes do not name one).
    static let defaultLanguage = "en"

    /// BCP 47 tag → the table (text → translation); the default language's own table is left out.
    let tables: [(language: String, strings: [String: String])]

    /// Reads the pass.strings files among `files` (`parse` caches the ones every pass shares).
    init(files: [PassFile], parse: (PassFile) -> [String: String]) {
        var tables: [(String, [String: String])] = []
        for file in files where file.path.utf8.last == 0x73 && file.path.hasSuffix(Self.stringsSuffix) {
            let folder = String(file.path.dropLast(Self.stringsSuffix.count))
            guard !folder.utf8.contains(0x2F) else { continue }
            let language = Self.languageTag(folder)
            guard language != Self.defaultLanguage else { continue }
            tables.append((language, parse(file)))
        }
        self.tables = tables.sorted { $0.0 < $1.0 }
    }

    private static let stringsSuffix = ".lproj/pass.strings"

    /// `pt_BR` → `pt-BR`, `zh_Hans` → `zh-Hans`.
    static func languageTag(_ folder: String) -> String {
        folder.utf8.contains(0x5F) ? folder.replacingUnderscores() : folder
    }

    /// A LocalizedString: `text` as the default value, each table's translation of it as a translated value.
    /// `formatted` gives a language's text when it is not a lookup (dates, numbers).
    func localized(_ text: String, formatted: ((String) -> String)? = nil) -> JSONValue {
        var object: [String: JSONValue] = [
            "defaultValue": ["language": .string(Self.defaultLanguage), "value": .string(text)]
        ]
        let translated = translations(of: text, formatted: formatted)
        if !translated.isEmpty { object["translatedValues"] = .array(translated) }
        return .object(object)
    }

    /// The `localized…` twin of a plain string field: only the translated values (the plain field is the default),
    /// nil when no table translates `text`.
    func twin(_ text: String, formatted: ((String) -> String)? = nil) -> JSONValue? {
        let translated = translations(of: text, formatted: formatted)
        return translated.isEmpty ? nil : ["translatedValues": .array(translated)]
    }

    /// The translated values of `text` (empty when no table has a different text for it).
    func translations(of text: String, formatted: ((String) -> String)? = nil) -> [JSONValue] {
        var out: [JSONValue] = []
        for table in tables {
            let value = formatted?(table.language) ?? table.strings[text]
            guard let value, value != text else { continue }
            out.append(["language": .string(table.language), "value": .string(value)])
        }
        return out
    }
}

extension String {
    fileprivate func replacingUnderscores() -> String {
        String(map { $0 == "_" ? "-" : $0 })
    }
}
