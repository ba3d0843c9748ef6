import PassModel
import PassTemplates

/// Per-record images: a record's photos scaled to their slots, or the images stored with a pass being re-rendered.
extension PassIssuer {
    /// The styles whose image sizes may apply, in the order Wallet shows them: `posterGeneric` when the template
    /// has one, then its legacy style (the fallback older systems show).
    package static func imageStyles(of passJSON: JSONValue) -> (styles: [String], isPoster: Bool) {
        let root = passJSON.objectValue ?? [:]
        let poster = root[PassStyle.posterGeneric.rawValue] != nil ? [PassStyle.posterGeneric.rawValue] : []
        let legacy = PassStyle.legacy.map(\.rawValue).first { root[$0] != nil }.map { [$0] } ?? []
        let isPoster = root["preferredStyleSchemes"]?.arrayValue?.contains(.string("posterEventTicket")) ?? false
        return (poster + legacy, isPoster)
    }

    /// The style a per-record image for `slot` is sized for: the first of `imageStyles` that shows the slot (a
    /// member photo in `thumbnail` is the generic fallback's, since posterGeneric shows no thumbnail), else the
    /// first style, whose refusal then names the slot.
    func imageStyle(forSlot slot: String) -> (style: String?, isPoster: Bool) {
        Self.imageStyle(forSlot: slot, among: imageStyles)
    }

    /// `imageStyle(forSlot:)` for the styles of any pass.json (`imageStyles(of:)`); preview uses it too.
    package static func imageStyle(forSlot slot: String, among imageStyles: (styles: [String], isPoster: Bool))
        -> (style: String?, isPoster: Bool)
    {
        for style in imageStyles.styles {
            // iOS 27 shows posterGeneric whatever preferredStyleSchemes asks for.
            let isPoster = style == PassStyle.posterGeneric.rawValue ? false : imageStyles.isPoster
            guard let rule = ImageSlot.rule(for: slot, style: style, isPoster: isPoster) else { continue }
            if rule.styles == nil || rule.styles!.contains(style) { return (style, isPoster) }
        }
        return (imageStyles.styles.first, imageStyles.isPoster)
    }

    /// The pass's per-record image files: the request's stored images, replaced slot by slot by the images the
    /// record names. A template field's default image (no record key names it) does not replace a stored one.
    /// - Throws: `.invalidInput` naming the file for an image that cannot be used, `.environment` when libvips
    ///   cannot start or the issuer has no scaler.
    func perRecordImages(_ resolved: ResolvedRecord, record: [String: String], request: IssueRequest)
        throws(PassMintError) -> [PassFile]
    {
        var files: [String: PassFile] = [:]
        for (path, bytes) in request.storedImages {
            files[path] = PassFile(path: path, bytes: bytes, isSharedAsset: false, isPerRecord: true)
        }
        for (slot, path) in resolved.images.sorted(by: { $0.key < $1.key }) {
            let key = recordKey(slot: slot, path: path, record: record)
            let stored = files.values.contains { PhotoFiles.slot(ofFile: $0.path) == slot }
            if key == nil, stored { continue }
            // A default from template.json is a path inside the template folder.
            let folder = key.map { request.imageFolders[$0] ?? request.imageFolder ?? "." } ?? template.directory
            let scaled: [PassFile]
            let sized = imageStyle(forSlot: slot)
            do {
                scaled = try photos.files(
                    slot: slot, path: path, folder: folder, style: sized.style, isPoster: sized.isPoster)
            } catch {
                throw .photo(error)
            }
            files = files.filter { PhotoFiles.slot(ofFile: $0.key) != slot }
            for file in scaled { files[file.path] = file }
        }
        return files.values.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }

    /// The record key that named `path` for `slot`: `image.SLOT` first (it wins in `Template.resolve`), then the
    /// template's image fields for the slot; nil when the path is a field's default.
    private func recordKey(slot: String, path: String, record: [String: String]) -> String? {
        let candidates =
            [Template.imageKeyPrefix + slot]
            + template.fields.filter { $0.kind == .image && $0.imageSlot == slot }.map(\.name)
        return candidates.first { record[$0] == path }
    }
}
