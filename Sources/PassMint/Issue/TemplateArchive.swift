import PassArchive
import PassTemplates

/// Unpacks a zipped template (a `.pkpasstemplate` or `.zip` file holding pass.json, images, tooling.json, …,
/// possibly inside one top-level folder) into a `TemplateSource`. PassTemplates never opens zips; this is the
/// one place that does it for templates.
///
/// A template travels from people and tools PassMint does not control, so the archive is held to limits before
/// anything is used: at most `maxEntries` entries, `maxInflatedBytes` uncompressed bytes together, and entry
/// names that stay inside the template (no `..`, no absolute paths, no backslashes).
enum TemplateArchive {
    /// Far more than a template has (about 30 images × 3 scales, a few localizations).
    static let maxEntries = 2_000
    /// Far more than a template's images need, far less than a zip bomb inflates to.
    static let maxInflatedBytes = 64 * 1024 * 1024

    /// The template files in the zip at `path`.
    /// - Throws: `PassMintError.invalidInput` naming the file and what to do.
    static func source(path: String) throws(PassMintError) -> TemplateSource {
        let reader: ArchiveReader
        do {
            reader = try ArchiveReader(contentsOf: path, sizeLimit: maxInflatedBytes)
        } catch {
            throw .invalidInput("template \(path): \(error); a zipped template must be a zip of the template "
                + "folder (pass.json, images, tooling.json)")
        }
        guard reader.entryNames.count <= maxEntries else {
            throw .invalidInput("template \(path): the zip holds \(reader.entryNames.count) entries, more than the "
                + "\(maxEntries) a template may have; zip only the template folder")
        }
        for name in reader.entryNames where !isSafe(name) {
            throw .invalidInput("template \(path): entry '\(name)' points outside the template (absolute path, "
                + "'..' or '\\'); re-create the zip from the template folder")
        }
        if let unreadable = reader.unreadableEntries.first {
            throw .invalidInput("template \(path): \(unreadable)")
        }
        var files: [String: [UInt8]] = [:]
        for entry in reader.files { files[entry.name] = entry.bytes }
        return TemplateSource(name: path, files: files)
    }

    /// Relative, `/`-separated, and never climbing out of the template.
    static func isSafe(_ name: String) -> Bool {
        guard !name.isEmpty, !name.hasPrefix("/"), !name.contains("\\"), !name.contains("\0") else { return false }
        return !name.split(separator: "/").contains("..")
    }
}
