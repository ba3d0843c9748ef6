import Foundation
import PassArchive
import PassModel
import PassTemplates
import PassSigning

/// Builds issuers from paths, turning library errors into `PassMintError`s.
public enum PassFactory {
    /// Loads the template and the signing identity.
    /// - Parameter photos: scales the records' photos (PassPhotos' `PhotoScaler`); without one, a record that
    ///   names an image fails with `PhotoError.scalerUnavailable`.
    public static func issuer(
        templateDirectory: String, identity: IdentityOptions, trust: TrustRoots = .none,
        photos: any PhotoScaling = NoPhotoScaler()
    ) throws(PassMintError) -> PassIssuer {
        let template = try loadTemplate(templateDirectory)
        let loaded = try identity.load()
        return PassIssuer(
            template: template, identity: loaded, identityWarnings: identity.warnings(for: loaded, trust: trust),
            photos: photos)
    }

    /// The files of a template: a folder as `TemplateSource.read(directory:)` reads it, or a zipped template
    /// unpacked as `loadTemplate(_:)` unpacks it (within the same limits), so a version stored from these files
    /// loads to the same template.
    /// - Throws: `PassMintError.template` for an unreadable folder, `.invalidInput` for a missing path or a bad zip.
    public static func templateSource(_ path: String) throws(PassMintError) -> TemplateSource {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .templateNotFound(path: path)
        }
        guard isDirectory.boolValue else { return try TemplateArchive.source(path: path) }
        do {
            return try TemplateSource.read(directory: path)
        } catch {
            throw .template(error)
        }
    }

    /// Loads a template: a folder (a `.pass`-style folder or a Pass Designer `.pkpasstemplate`), or a zipped
    /// template file (`.pkpasstemplate` or `.zip`, see `TemplateArchive`). A missing path is named with what to do.
    /// - Parameter path: the folder or the zip file.
    /// - Throws: `PassMintError.template` with the template's own error, `.invalidInput` for a missing path,
    ///   `.photo` for an image over the limits of member photos (see `loadTemplate(_:)` for a source).
    public static func loadTemplate(_ path: String) throws(PassMintError) -> Template {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .templateNotFound(path: path)
        }
        guard isDirectory.boolValue else { return try loadTemplate(TemplateArchive.source(path: path)) }
        let template: Template
        do {
            template = try Template.load(directory: path)
        } catch {
            throw .template(error)
        }
        try TemplateImages.check(template)
        return template
    }

    /// Loads a template from its files (a folder or zip read by `templateSource(_:)`, a stored version) and checks
    /// its images as member photos are checked: a file over 50 MB, more than 40 megapixels or a decompression bomb
    /// refuses the template, naming the file.
    /// - Throws: `PassMintError.template` with the template's own error, `.photo` for an image.
    public static func loadTemplate(_ source: TemplateSource) throws(PassMintError) -> Template {
        let template: Template
        do {
            template = try Template.load(source)
        } catch {
            throw .template(error)
        }
        try TemplateImages.check(template)
        return template
    }
}
