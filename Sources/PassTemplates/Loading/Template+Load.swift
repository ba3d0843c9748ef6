import PassModel

extension Template {
    /// Loads a template folder once: every file's bytes are read here and kept; nothing is re-read per pass.
    /// A plain Wallet `.pass` folder without placeholders and without template.json is a valid template, and so
    /// is a Pass Designer `.pkpasstemplate` folder. For a zipped template, unpack it into a `TemplateSource` and
    /// call `load(_:)`.
    /// - Parameter directory: the template folder.
    /// - Throws: `TemplateError` as `load(_:)`, and `.unreadable` for a folder or file that cannot be read.
    public static func load(directory: String) throws(TemplateError) -> Template {
        try load(TemplateSource.read(directory: directory))
    }

    /// Assembles a template from its files (a folder read by `TemplateSource.read(directory:)`, or the entries
    /// of a zipped template).
    ///
    /// What is kept: pass.json, template.json and tooling.json (neither copied into passes), every other
    /// top-level file, and `xx.lproj/` folders (pass.strings and localized images). Skipped silently: junk
    /// (`.DS_Store`, `__MACOSX`, `Thumbs.db`, dotfiles) and tier image sources (paths named in template.json
    /// tiers). Skipped with a warning: other folders, folders inside `.lproj`, and `manifest.json` / `signature`
    /// (made when signing).
    /// - Parameter source: the template's files.
    /// - Throws: `TemplateError` naming the file and JSON path: missing pass.json, invalid JSON
    ///   (file:line:column), a template.json that breaks the contract, an invalid tooling.json, a missing tier
    ///   image, a malformed or unknown placeholder, a malformed pass.strings.
    public static func load(_ source: TemplateSource) throws(TemplateError) -> Template {
        var warnings: [String] = []
        let documents = try parseDocuments(source, warnings: &warnings)
        let tiers = documents.manifest?.tiers ?? [:]
        let tierImages = try readTierImages(tiers, source: source)
        var (assets, localizations) = try collectAssets(source, tierImages: tierImages, warnings: &warnings)
        var fields = try placeholderFields(
            documents, assets: &assets, source: source, warnings: &warnings)
        var keyFields: Set<String> = []
        if source.isDesignerTemplate {
            // template.json's fields stand; without one, a placeholder named like a key is the key's field.
            let keyed = KeyFields.scan(
                documents.pass.value, declared: documents.manifest?.fields ?? [],
                file: source.file("pass.json"), warnings: &warnings)
            let implicit = Set(keyed.implicit.map(\.name))
            fields = fields.filter { !implicit.contains($0.name) } + keyed.implicit
            keyFields = keyed.names
        }
        warnings += localizationWarnings(assets, directory: source.name)
        let google = try googleDocument(source, fields: fields.map(\.name), warnings: &warnings)

        let serial = documents.pass.value["serialNumber"]?.stringValue
        let literalSerial = serial.map { (try? PlaceholderScan.uses(in: $0, path: "", file: ""))?.isEmpty == true }
        localizations.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return Template(
            directory: source.name, fields: fields, keyFields: keyFields, tierField: documents.manifest?.tierField,
            tiers: tiers, passJSON: documents.pass.value, leniencies: documents.pass.leniencies,
            hasLiteralSerialNumber: literalSerial ?? false, hasTemplateJSON: documents.manifest != nil,
            isDesignerTemplate: source.isDesignerTemplate, tooling: documents.tooling, warnings: warnings,
            localizations: localizations, googleJSON: google, fieldNames: Set(fields.map(\.name)),
            fieldKinds: Dictionary(fields.map { ($0.name, $0.kind) }) { _, last in last }, assets: assets,
            tierImages: tierImages)
    }

    /// google.json, parsed, its placeholders checked against the template's fields (nil when there is none).
    static func googleDocument(
        _ source: TemplateSource, fields: [String], warnings: inout [String]
    ) throws(TemplateError) -> JSONValue? {
        guard let bytes = source.files[googleFile] else { return nil }
        let file = source.file(googleFile)
        let document = try parseJSON(bytes, file: file)
        for leniency in document.leniencies {
            warnings.append("\(file): \(leniency); strict JSON readers reject this")
        }
        guard document.value.objectValue != nil else {
            throw .invalidPassJSON(
                file: file, path: "",
                message: "the top level must be an object with \"class\" and \"object\" members, found "
                    + document.value.kindName)
        }
        let uses = try PlaceholderScan.uses(in: document.value, path: "", file: file, warnings: &warnings)
        try PlaceholderScan.checkKnown(uses, fields: fields, file: file)
        return document.value
    }

    /// pass.json, template.json and tooling.json, parsed and checked.
    struct Documents {
        let pass: JSONDocument
        let manifest: TemplateManifest?
        let tooling: ToolingManifest?
    }

    static func parseDocuments(_ source: TemplateSource, warnings: inout [String]) throws(TemplateError) -> Documents {
        guard let passBytes = source.files["pass.json"] else { throw .missingPassJSON(directory: source.name) }
        let passFile = source.file("pass.json")
        let pass = try parseJSON(passBytes, file: passFile)
        guard pass.value.objectValue != nil else {
            throw .invalidPassJSON(
                file: passFile, path: "",
                message: "the top level must be an object, found "
                    + "\(pass.value.kindName)")
        }
        var manifest: TemplateManifest?
        if let bytes = source.files["template.json"] {
            let file = source.file("template.json")
            let document = try parseJSON(bytes, file: file)
            for leniency in document.leniencies {
                warnings.append("\(file): \(leniency); strict JSON readers reject this")
            }
            let parsed = try TemplateManifest.parse(document.value, file: file)
            warnings += parsed.warnings
            manifest = parsed
        }
        var tooling: ToolingManifest?
        if let bytes = source.files[ToolingManifest.fileName] {
            let file = source.file(ToolingManifest.fileName)
            let document = try parseJSON(bytes, file: file)
            for leniency in document.leniencies {
                warnings.append("\(file): \(leniency); strict JSON readers reject this")
            }
            tooling = try ToolingManifest.parse(document.value, file: file, warnings: &warnings)
        }
        return Documents(pass: pass, manifest: manifest, tooling: tooling)
    }

    /// The fields the placeholders call for: template.json's (every placeholder must name one), or one implicit
    /// required string field per placeholder. pass.strings without placeholders get their shared bytes here.
    static func placeholderFields(
        _ documents: Documents, assets: inout [TemplateAsset], source: TemplateSource, warnings: inout [String]
    ) throws(TemplateError) -> [TemplateField] {
        let passFile = source.file("pass.json")
        var uses = try PlaceholderScan.uses(in: documents.pass.value, path: "", file: passFile, warnings: &warnings)
        var stringsUses: [(file: String, uses: [PlaceholderUse])] = []
        for (index, asset) in assets.enumerated() {
            guard case .strings(var strings) = asset else { continue }
            let file = source.file(strings.path)
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
        guard let manifest = documents.manifest else {
            uses += stringsUses.flatMap(\.uses)
            var seen: Set<String> = [serialNumberPlaceholder]
            return uses.compactMap { use in
                seen.insert(use.name).inserted ? TemplateField(name: use.name, kind: .string, required: true) : nil
            }
        }
        let templateFile = source.file("template.json")
        let names = manifest.fields.map(\.name)
        try PlaceholderScan.checkKnown(uses, fields: names, file: passFile)
        for (file, found) in stringsUses { try PlaceholderScan.checkKnown(found, fields: names, file: file) }
        for name in manifest.tiers.keys.sorted() {
            let path = TemplatePath.member("tiers.values", name) + ".pass"
            let found = try PlaceholderScan.uses(
                in: .object(manifest.tiers[name]!.pass), path: path, file: templateFile, warnings: &warnings)
            try PlaceholderScan.checkKnown(found, fields: names, file: templateFile)
        }
        return manifest.fields
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
        _ tiers: [String: TemplateTier], source: TemplateSource
    ) throws(TemplateError) -> [String: [UInt8]] {
        var images: [String: [UInt8]] = [:]
        for name in tiers.keys.sorted() {
            let tier = tiers[name]!
            for dest in tier.images.keys.sorted() {
                let path = tier.images[dest]!
                if images[path] != nil { continue }
                guard let bytes = source.files[path] else {
                    let member = TemplatePath.member(TemplatePath.member("tiers.values", name) + ".images", dest)
                    throw .missingTierImage(file: source.file("template.json"), path: member, source: path)
                }
                images[path] = bytes
            }
        }
        return images
    }

    /// The files that go into every pass: top-level files and `.lproj` folders.
    static func collectAssets(
        _ source: TemplateSource, tierImages: [String: [UInt8]], warnings: inout [String]
    ) throws(TemplateError) -> (assets: [TemplateAsset], localizations: [String]) {
        var assets: [TemplateAsset] = []
        var localizations: [String] = []
        for name in source.topLevelFiles {
            switch name {
            case "pass.json", "template.json", ToolingManifest.fileName, Template.googleFile:
                continue
            case "manifest.json", "signature":
                warnings.append("\(source.file(name)): skipped; it is made anew when the pass is signed")
            default:
                if tierImages[name] != nil { continue }
                assets.append(.file(PassFile(path: name, bytes: source.files[name]!, isSharedAsset: true)))
            }
        }
        for folder in source.folders {
            guard folder.name.hasSuffix(".lproj"), folder.name.count > 6 else {
                let unused = folder.files.filter { tierImages[folder.name + "/" + $0] == nil }
                if !unused.isEmpty {
                    warnings.append(
                        "\(source.file(folder.name))/: folder skipped (\(unused.count) file(s) not used as "
                            + "tier images); a pass holds files only at its top level and in xx.lproj folders")
                }
                continue
            }
            localizations.append(folder.name)
            var nested: Set<String> = []
            for inner in folder.files {
                let path = folder.name + "/" + inner
                if let slash = inner.firstIndex(of: "/") {
                    if nested.insert(String(inner[..<slash])).inserted {
                        warnings.append(
                            "\(source.file(folder.name + "/" + inner[..<slash]))/: folder skipped; an "
                                + ".lproj folder holds only files")
                    }
                    continue
                }
                if tierImages[path] != nil { continue }
                let bytes = source.files[path]!
                if inner == "pass.strings" {
                    let entries = try PassStrings.parse(bytes, file: source.file(path))
                    assets.append(.strings(LocalizedStrings(path: path, entries: entries, sharedBytes: nil)))
                } else {
                    assets.append(.file(PassFile(path: path, bytes: bytes, isSharedAsset: true)))
                }
            }
        }
        return (assets, localizations)
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
