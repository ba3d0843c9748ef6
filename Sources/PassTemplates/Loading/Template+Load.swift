import PassModel

extension Template {
    /// Loads a template folder once: every file's bytes are read here and kept; nothing is re-read per pass.
    /// A plain Wallet `.pass` folder without placeholders and without template.json is a valid template.
    ///
    /// What is kept: pass.json, template.json (not copied into passes), every other top-level file, and
    /// `xx.lproj/` folders (pass.strings and localized images). Skipped silently: junk (`.DS_Store`, `__MACOSX`,
    /// `Thumbs.db`, dotfiles) and tier image sources (paths named in template.json tiers). Skipped with a
    /// warning: other folders, folders inside `.lproj`, and `manifest.json` / `signature` (made when signing).
    /// - Parameter directory: the template folder.
    /// - Throws: `TemplateError` naming the file and JSON path: unreadable folder, missing pass.json, invalid
    ///   JSON (file:line:column), a template.json that breaks the contract, a missing tier image, a malformed
    ///   or unknown placeholder, a malformed pass.strings.
    public static func load(directory: String) throws(TemplateError) -> Template {
        var dir = directory
        while dir.count > 1, dir.hasSuffix("/") { dir.removeLast() }
        guard FolderReader.isDirectory(dir) else {
            throw .unreadable(path: dir, reason: FolderReader.exists(dir) ? "not a folder" : "no such folder")
        }
        let passFile = dir + "/pass.json"
        guard FolderReader.exists(passFile) else { throw .missingPassJSON(directory: dir) }
        let passDocument = try parseJSON(FolderReader.read(passFile), file: passFile)
        guard passDocument.value.objectValue != nil else {
            throw .invalidPassJSON(file: passFile, path: "", message: "the top level must be an object, found "
                + "\(passDocument.value.kindName)")
        }

        var warnings: [String] = []
        let templateFile = dir + "/template.json"
        var manifest: TemplateManifest?
        if FolderReader.exists(templateFile) {
            let document = try parseJSON(FolderReader.read(templateFile), file: templateFile)
            for leniency in document.leniencies {
                warnings.append("\(templateFile): \(leniency); strict JSON readers reject this")
            }
            let parsed = try TemplateManifest.parse(document.value, file: templateFile)
            warnings += parsed.warnings
            manifest = parsed
        }
        let tiers = manifest?.tiers ?? [:]
        let tierImages = try readTierImages(tiers, directory: dir, file: templateFile)
        var (assets, localizations) = try readAssets(directory: dir, tierImages: tierImages, warnings: &warnings)

        // Placeholders: pass.json, pass.strings values, tier overrides.
        var uses = try PlaceholderScan.uses(in: passDocument.value, path: "", file: passFile, warnings: &warnings)
        var stringsUses: [(file: String, uses: [PlaceholderUse])] = []
        for (index, asset) in assets.enumerated() {
            guard case .strings(var strings) = asset else { continue }
            let file = dir + "/" + strings.path
            var found: [PlaceholderUse] = []
            for entry in strings.entries {
                found += try PlaceholderScan.uses(in: entry.value, path: "key \"\(entry.key)\"", file: file)
            }
            if found.isEmpty {
                strings.sharedBytes = PassStrings.serialize(strings.entries)
                assets[index] = .strings(strings)
            }
            stringsUses.append((file, found))
        }
        let fields: [TemplateField]
        if let manifest {
            let names = manifest.fields.map(\.name)
            try PlaceholderScan.checkKnown(uses, fields: names, file: passFile)
            for (file, found) in stringsUses { try PlaceholderScan.checkKnown(found, fields: names, file: file) }
            for name in tiers.keys.sorted() {
                let path = TemplatePath.member("tiers.values", name) + ".pass"
                let found = try PlaceholderScan.uses(
                    in: .object(tiers[name]!.pass), path: path, file: templateFile, warnings: &warnings)
                try PlaceholderScan.checkKnown(found, fields: names, file: templateFile)
            }
            fields = manifest.fields
        } else {
            uses += stringsUses.flatMap(\.uses)
            var seen: Set<String> = [serialNumberPlaceholder]
            fields = uses.compactMap { use in
                seen.insert(use.name).inserted ? TemplateField(name: use.name, kind: .string, required: true) : nil
            }
        }
        warnings += localizationWarnings(assets, directory: dir)

        let serial = passDocument.value["serialNumber"]?.stringValue
        let literalSerial = serial.map { (try? PlaceholderScan.uses(in: $0, path: "", file: ""))?.isEmpty == true }
        localizations.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return Template(
            directory: dir, fields: fields, tierField: manifest?.tierField, tiers: tiers,
            passJSON: passDocument.value, leniencies: passDocument.leniencies,
            hasLiteralSerialNumber: literalSerial ?? false, hasTemplateJSON: manifest != nil, warnings: warnings,
            localizations: localizations, assets: assets, tierImages: tierImages)
    }

    static func parseJSON(_ bytes: [UInt8], file: String) throws(TemplateError) -> JSONDocument {
        do {
            return try JSONReader.parse(bytes, file: file)
        } catch {
            throw .invalidJSON(file: error.file, line: error.line, column: error.column, message: error.message)
        }
    }

    /// Reads every tier image once; a missing one is an error naming its template.json path.
    static func readTierImages(
        _ tiers: [String: TemplateTier], directory: String, file: String
    ) throws(TemplateError) -> [String: [UInt8]] {
        var images: [String: [UInt8]] = [:]
        for name in tiers.keys.sorted() {
            let tier = tiers[name]!
            for dest in tier.images.keys.sorted() {
                let source = tier.images[dest]!
                if images[source] != nil { continue }
                let full = directory + "/" + source
                guard FolderReader.exists(full), !FolderReader.isDirectory(full) else {
                    let path = TemplatePath.member(TemplatePath.member("tiers.values", name) + ".images", dest)
                    throw .missingTierImage(file: file, path: path, source: source)
                }
                images[source] = try FolderReader.read(full)
            }
        }
        return images
    }

    /// Reads the files that go into every pass: top-level files and `.lproj` folders.
    static func readAssets(
        directory: String, tierImages: [String: [UInt8]], warnings: inout [String]
    ) throws(TemplateError) -> (assets: [TemplateAsset], localizations: [String]) {
        var assets: [TemplateAsset] = []
        var localizations: [String] = []
        for name in try FolderReader.list(directory) {
            let full = directory + "/" + name
            if FolderReader.isDirectory(full) {
                if name.hasSuffix(".lproj"), name.count > 6 {
                    localizations.append(name)
                    assets += try readLocalization(name, directory: directory, tierImages: tierImages,
                                                   warnings: &warnings)
                } else {
                    let unused = try FolderReader.filesRecursively(full).filter { tierImages[name + "/" + $0] == nil }
                    if !unused.isEmpty {
                        warnings.append("\(full)/: folder skipped (\(unused.count) file(s) not used as tier images); "
                            + "a pass holds files only at its top level and in xx.lproj folders")
                    }
                }
                continue
            }
            switch name {
            case "pass.json", "template.json":
                continue
            case "manifest.json", "signature":
                warnings.append("\(full): skipped; it is made anew when the pass is signed")
                continue
            default:
                if tierImages[name] != nil { continue }
                assets.append(.file(PassFile(path: name, bytes: try FolderReader.read(full), isSharedAsset: true)))
            }
        }
        return (assets, localizations)
    }

    static func readLocalization(
        _ name: String, directory: String, tierImages: [String: [UInt8]], warnings: inout [String]
    ) throws(TemplateError) -> [TemplateAsset] {
        var assets: [TemplateAsset] = []
        let folder = directory + "/" + name
        for inner in try FolderReader.list(folder) {
            let full = folder + "/" + inner
            let path = name + "/" + inner
            if FolderReader.isDirectory(full) {
                warnings.append("\(full)/: folder skipped; an .lproj folder holds only files")
                continue
            }
            if tierImages[path] != nil { continue }
            let bytes = try FolderReader.read(full)
            if inner == "pass.strings" {
                let entries = try PassStrings.parse(bytes, file: full)
                assets.append(.strings(LocalizedStrings(path: path, entries: entries, sharedBytes: nil)))
            } else {
                assets.append(.file(PassFile(path: path, bytes: bytes, isSharedAsset: true)))
            }
        }
        return assets
    }

    /// Every localization should carry the same keys (wallet-spec §4).
    static func localizationWarnings(_ assets: [TemplateAsset], directory: String) -> [String] {
        var keySets: [(path: String, keys: Set<String>)] = []
        for asset in assets {
            if case .strings(let s) = asset { keySets.append((s.path, Set(s.entries.map(\.key)))) }
        }
        guard keySets.count > 1 else { return [] }
        let all = keySets.reduce(into: Set<String>()) { $0.formUnion($1.keys) }
        return keySets.compactMap { entry in
            let missing = all.subtracting(entry.keys).sorted()
            guard !missing.isEmpty else { return nil }
            return "\(directory)/\(entry.path): lacks keys that other localizations have: "
                + missing.map { "\"\($0)\"" }.joined(separator: ", ") + "; every localization needs the same keys"
        }
    }
}
