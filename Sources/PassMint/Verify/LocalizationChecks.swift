import PassTemplates

/// Localization: valid `.lproj` names, every pass.strings parses and has the same key set, and every
/// `.lproj` folder carries the same localized images at the same resolutions.
enum LocalizationChecks {
    static func check(_ pass: PassFiles, into findings: inout Findings) {
        var folders: [String: [String]] = [:]  // folder → file names inside it
        for name in pass.contentNames {
            guard let folder = PassFiles.lproj(of: name) else { continue }
            folders[folder, default: []].append(String(name.dropFirst(folder.count + 1)))
        }
        guard !folders.isEmpty else { return }
        for folder in folders.keys.sorted() where !isLanguageID(String(folder.dropLast(".lproj".count))) {
            findings.warning(
                VerifyCode.localizationBadFolderName,
                "'\(folder)' is not named after a language ID (e.g. en.lproj, fr-CA.lproj, zh-Hans.lproj); "
                    + "Wallet never uses it", path: "\(folder)/")
        }
        checkStrings(pass, folders: folders, into: &findings)
        checkImages(folders, into: &findings)
    }

    private static func checkStrings(_ pass: PassFiles, folders: [String: [String]], into findings: inout Findings) {
        var keySets: [String: Set<String>] = [:]
        for folder in folders.keys.sorted() {
            let path = "\(folder)/pass.strings"
            guard let bytes = pass[path] else { continue }
            do {
                keySets[folder] = Set(try PassStrings.parse(bytes, file: path).map(\.key))
            } catch {
                findings.error(VerifyCode.localizationInvalidStrings, error.description, path: path)
            }
        }
        let withStrings = Set(keySets.keys)
        let hasAnyStrings = !withStrings.isEmpty || folders.keys.contains { pass["\($0)/pass.strings"] != nil }
        if hasAnyStrings {
            for folder in folders.keys.sorted() where pass["\(folder)/pass.strings"] == nil {
                findings.warning(
                    VerifyCode.localizationInconsistent,
                    "'\(folder)' has no pass.strings while other .lproj folders do; users of that language see "
                        + "untranslated keys", path: "\(folder)/")
            }
        }
        let allKeys = keySets.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        for (folder, keys) in keySets.sorted(by: { $0.key < $1.key }) {
            let missing = allKeys.subtracting(keys).sorted()
            guard !missing.isEmpty else { continue }
            let owners = keySets.filter { !$0.value.isDisjoint(with: missing) }.keys.sorted()
            findings.warning(
                VerifyCode.localizationInconsistent,
                "\(folder)/pass.strings lacks \(missing.count) key(s) that "
                    + owners.joined(separator: ", ") + " define: " + list(missing)
                    + "; every pass.strings should have the same keys", path: "\(folder)/pass.strings")
        }
    }

    private static func checkImages(_ folders: [String: [String]], into findings: inout Findings) {
        guard folders.count > 1 else { return }
        var imagesPerFolder: [String: Set<String>] = [:]
        for (folder, files) in folders {
            imagesPerFolder[folder] = Set(files.filter { $0.lowercased().hasSuffix(".png") })
        }
        let all = imagesPerFolder.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        for (folder, images) in imagesPerFolder.sorted(by: { $0.key < $1.key }) {
            let missing = all.subtracting(images).sorted()
            guard !missing.isEmpty else { continue }
            findings.warning(
                VerifyCode.localizationInconsistent,
                "'\(folder)' lacks localized image(s) other .lproj folders have: " + list(missing)
                    + "; every folder must carry the same images at the same resolutions", path: "\(folder)/")
        }
    }

    private static func list(_ items: [String]) -> String {
        items.prefix(8).joined(separator: ", ") + (items.count > 8 ? ", … (\(items.count) in all)" : "")
    }

    /// "en", "fr-CA", "zh-Hans", "pt_BR", "es-419", "Base": a 2-3 letter language (or "Base") and optional
    /// script / region subtags.
    static func isLanguageID(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
        guard let language = parts.first, (2...3).contains(language.count) || language == "Base",
            language.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return parts.dropFirst().allSatisfy { part in
            (2...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }
}
