import Foundation
import PassArchive
import PassModel
import PassTemplates

/// Builds issuers from paths, turning library errors into `PassMintError`s.
public enum PassFactory {
    /// Loads the template and the signing identity.
    public static func issuer(templateDirectory: String, identity: IdentityOptions, trust: TrustRoots = .none)
        throws(PassMintError) -> PassIssuer
    {
        let template = try loadTemplate(templateDirectory)
        let loaded = try identity.load()
        return PassIssuer(template: template, identity: loaded, identityWarnings: identity.warnings(for: loaded, trust: trust))
    }

    /// Loads a template folder; a missing folder is named with what to do.
    public static func loadTemplate(_ directory: String) throws(PassMintError) -> Template {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .invalidInput(
                "template folder \(directory) does not exist; give a folder holding pass.json (see Templates/ for examples)")
        }
        do {
            return try Template.load(directory: directory)
        } catch {
            throw .invalidInput("\(error)")
        }
    }
}
