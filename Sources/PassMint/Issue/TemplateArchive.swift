import Foundation
import PassArchive
import PassTemplates

/// Unpacks a zipped template (a `.pkpasstemplate` or `.zip` file holding pass.json, images, tooling.json, …,
/// possibly inside one top-level folder) into a `TemplateSource`. PassTemplates never opens zips; this is the
/// one place that does it for templates.
///
/// A template travels from people and tools PassMint does not control, so the archive is read within the limits
/// of a pass (`ArchiveLimits.pass`: entry count checked before inflating, bytes per entry and in all), since every
/// file of the template may end up in one; and every entry name must stay inside the template (no `..`, no
/// absolute paths, no backslashes).
enum TemplateArchive {
    /// The limits a zipped template is read within.
    static let limits = ArchiveLimits.pass

    /// The template files in the zip at `path`.
    /// - Throws: `PassMintError.templateArchive` naming the file and what is wrong with it.
    static func source(path: String) throws(PassMintError) -> TemplateSource {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .templateArchive(path: path, .unreadable)
        }
        let reader: ArchiveReader
        do {
            reader = try ArchiveReader(bytes: [UInt8](data), name: path, limits: limits)
        } catch {
            throw .templateArchive(path: path, .notAZip(error))
        }
        for name in reader.entryNames where !isSafe(name) {
            throw .templateArchive(path: path, .unsafeEntry(name))
        }
        if let unreadable = reader.unreadableEntries.first {
            throw .templateArchive(path: path, .unreadableEntry(unreadable))
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
