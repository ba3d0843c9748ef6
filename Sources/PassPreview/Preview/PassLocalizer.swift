import Foundation
import PassTemplates

/// Localized strings and images of one locale: `xx.lproj/pass.strings` of the chosen locale (or its language,
/// `de` for `de-AT`), falling back to pass.json's own text, as Wallet does.
public struct PassLocalizer: Sendable {
    /// The `.lproj` folder in use, nil when the pass has none for the locale.
    public let folder: String?
    let strings: [String: String]

    /// Picks the folder for `locale` among the pass's files; nil or no match gives no translation.
    public init(files: [String: [UInt8]], locale: String?) {
        let folders = Set(
            files.keys.compactMap { path -> String? in
                let parts = path.split(separator: "/")
                return parts.count == 2 && parts[0].hasSuffix(".lproj") ? String(parts[0]) : nil
            })
        var chosen: String?
        if let locale {
            let normalized = locale.replacingOccurrences(of: "_", with: "-")
            let language = normalized.split(separator: "-").first.map(String.init) ?? normalized
            for candidate in [normalized, language] where folders.contains(candidate + ".lproj") {
                chosen = candidate + ".lproj"
                break
            }
            if chosen == nil {
                chosen = folders.sorted().first { $0.lowercased().hasPrefix(language.lowercased()) }
            }
        }
        folder = chosen
        var table: [String: String] = [:]
        if let chosen, let bytes = files[chosen + "/pass.strings"],
            let entries = try? PassStrings.parse(bytes, file: chosen + "/pass.strings")
        {
            for entry in entries { table[entry.key] = entry.value }
        }
        strings = table
    }

    /// The translation of `text`, or `text` itself.
    public func callAsFunction(_ text: String) -> String { strings[text] ?? text }

    /// The translation of an optional text.
    public func callAsFunction(_ text: String?) -> String? { text.map { strings[$0] ?? $0 } }

    /// True when `text` is a key of the chosen pass.strings.
    public func translates(_ text: String) -> Bool { strings[text] != nil }
}
