import Foundation
import PassArchive
import PassModel
import PassTemplates
import PassMint
import PassPhotos

/// A pass to draw or review: its typed pass.json and its other files (images, `xx.lproj/pass.strings`), read
/// from a signed .pkpass, a .pkpasses bundle (one source per pass), or a template rendered with a record.
public struct PreviewSource: Sendable {
    /// What to call the pass in pages and messages (the file, or "bundle.pkpasses:inner.pkpass").
    public var name: String
    public var pass: Pass
    /// The pass.json as read (lint looks at values before the typed model normalises them).
    public var passJSON: JSONValue
    /// Every other file by path inside the pass.
    public var files: [String: [UInt8]]
    /// The template it was rendered from, when it came from one (lint reads its fields and tiers).
    public var template: Template?

    /// A source from already-read parts.
    public init(name: String, passJSON: JSONValue, files: [String: [UInt8]], template: Template? = nil)
        throws(PreviewError)
    {
        do {
            pass = try Pass(json: passJSON)
        } catch {
            throw .passJSONModel(file: name + "/pass.json", error)
        }
        self.name = name
        self.passJSON = passJSON
        self.files = files
        self.template = template
    }

    /// Reads `path`: a .pkpass (one source), a .pkpasses bundle (one per pass inside), or a template folder or
    /// zipped template rendered with `record` (template fields, pass field keys and reserved keys, as `--set`
    /// takes them) and, when given, `tier` as the value of the template's tier field.
    /// - Throws: `PreviewError` naming the file and what is wrong with it.
    public static func load(path: String, record: [String: String] = [:], tier: String? = nil)
        throws(PreviewError) -> [PreviewSource]
    {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .notFound(path: path)
        }
        let lower = path.lowercased()
        if !isDirectory.boolValue, lower.hasSuffix(".pkpass") || lower.hasSuffix(".pkpasses") {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .unreadable(path: path)
            }
            return try archive([UInt8](data), name: path)
        }
        return [try template(path: path, record: record, tier: tier)]
    }

    /// The passes in a .pkpass or .pkpasses held in memory.
    public static func archive(_ bytes: [UInt8], name: String) throws(PreviewError) -> [PreviewSource] {
        let reader: ArchiveReader
        do {
            reader = try ArchiveReader(
                bytes: bytes, name: name, limits: name.lowercased().hasSuffix(".pkpasses") ? .bundle : .pass)
        } catch {
            throw .pipeline(.archive(error))
        }
        if !reader.contains("pass.json") {
            let inner = PassBundle.passes(in: reader)
            guard !inner.isEmpty else {
                throw .notAPass(file: name)
            }
            var out: [PreviewSource] = []
            for entry in inner { out += try archive(entry.bytes, name: "\(name):\(entry.name)") }
            return out
        }
        var files: [String: [UInt8]] = [:]
        for entry in reader.files where !ArchiveEntry.isJunk(entry.name) {
            // The page inlines every image for the browser to decode: images are held to the photo limits first.
            if ImageHeader(entry.bytes) != nil {
                do {
                    _ = try PhotoLimits.standard.checkHeader(entry.bytes, file: "\(name)/\(entry.name)")
                } catch {
                    throw .pipeline(.photo(error))
                }
            }
            files[entry.name] = entry.bytes
        }
        let passBytes = files.removeValue(forKey: "pass.json") ?? []
        let json: JSONValue
        do {
            json = try JSONReader.parse(passBytes, file: "\(name)/pass.json").value
        } catch {
            throw .passJSONSyntax(file: "\(name)/pass.json", error)
        }
        return [try PreviewSource(name: name, passJSON: json, files: files)]
    }

    /// A template rendered with `record` (and `tier`), with a placeholder serial number when it needs one.
    public static func template(path: String, record: [String: String], tier: String?) throws(PreviewError)
        -> PreviewSource
    {
        let template: Template
        do {
            template = try PassFactory.loadTemplate(path)
        } catch {
            throw .pipeline(error)
        }
        return try rendered(template, record: record, tier: tier)
    }

    /// A loaded template rendered with `record` (and `tier`).
    public static func rendered(_ template: Template, record: [String: String], tier: String?) throws(PreviewError)
        -> PreviewSource
    {
        var record = record
        if let tier {
            guard let field = template.tierField else {
                throw .noTiers(file: template.templateJSONFile, tier: tier)
            }
            guard template.tiers[tier] != nil else {
                throw .unknownTier(file: template.templateJSONFile, tier: tier, tiers: template.tiers.keys.sorted())
            }
            record[field] = tier
        }
        let serial =
            record.removeValue(forKey: Template.serialNumberPlaceholder)
            ?? (template.hasLiteralSerialNumber ? nil : "PREVIEW-0001")
        let rendered: RenderedPass
        let resolved: ResolvedRecord
        do {
            resolved = try template.resolve(record)
        } catch {
            throw .pipeline(.template(error))
        }
        let images = try perRecordImages(resolved, record: record, template: template)
        do {
            rendered = try template.render(resolved, context: RenderContext(serialNumber: serial, images: images))
        } catch {
            throw .pipeline(.template(error))
        }
        var files: [String: [UInt8]] = [:]
        for file in rendered.files { files[file.path] = file.bytes }
        return try PreviewSource(
            name: template.directory, passJSON: rendered.passJSON, files: files, template: template)
    }

    /// The record's images (`image.SLOT` keys, image fields) scaled to their slots as `generate` scales them:
    /// a path the record gives is relative to the current folder, a field's default to the template's folder.
    static func perRecordImages(_ resolved: ResolvedRecord, record: [String: String], template: Template)
        throws(PreviewError) -> [PassFile]
    {
        guard !resolved.images.isEmpty else { return [] }
        let scaler = PhotoScaler()
        let styles = PassIssuer.imageStyles(of: template.passJSON)
        var files: [PassFile] = []
        for (slot, path) in resolved.images.sorted(by: { $0.key < $1.key }) {
            let fromRecord = record.values.contains(path)
            let sized = PassIssuer.imageStyle(forSlot: slot, among: styles)
            do {
                files += try scaler.files(
                    slot: slot, path: path, folder: fromRecord ? "." : template.directory, style: sized.style,
                    isPoster: sized.isPoster)
            } catch {
                throw .pipeline(.photo(error))
            }
        }
        return files
    }
}
