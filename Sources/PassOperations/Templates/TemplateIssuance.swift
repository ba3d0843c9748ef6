import PassMint
import PassTemplates
import PassStore

/// Issuing passes into a store from a template folder: the folder's version is stored once (before any pass),
/// and every pass names it by `TemplateReference`, so later edits of the folder change nothing that is served.
package struct TemplateIssuance: Sendable {
    /// What every issued pass stores as its template.
    package let reference: TemplateReference
    /// Stores issued passes with `reference` as their template.
    package let sink: any IssuedPassSink
    /// Said once per run: e.g. the folder is not the version current for its name.
    package let warnings: [String]

    /// Opens the store, stores the version of the template at `templatePath` (nothing when that content is
    /// stored already) and makes it current for its name when the name has no current version yet.
    /// - Parameters:
    ///   - name: the template's name; nil for the folder's last path component without `.pkpasstemplate` or
    ///     `.zip`.
    /// - Throws: `OperationError.pipeline` for an unreadable template, `.invalidTemplateName` for a name that
    ///   cannot be used, `.store` when the store cannot be opened or written.
    package static func prepare(store location: StoreLocation, templatePath: String, name: String?)
        throws(OperationError) -> TemplateIssuance
    {
        let store: any ServiceStore
        do { store = try StoreAccess.open(location) } catch { throw .unopenableStore(error) }
        return try prepare(store: store, templatePath: templatePath, name: name)
    }

    /// `prepare(store:templatePath:name:)` on an open store.
    package static func prepare(
        store: any PassStore & TemplateVersionStore & PassLinkStore & BulkChangeStore, templatePath: String,
        name: String?
    ) throws(OperationError) -> TemplateIssuance {
        let name = name ?? TemplateReference.name(forPath: templatePath)
        let source = try OperationError.fromPipeline { () throws(PassMintError) in
            try PassFactory.templateSource(templatePath)
        }
        // A folder that is no template (or whose images are over the limits) is refused here, before its files are
        // stored or published as current.
        _ = try OperationError.fromPipeline { () throws(PassMintError) in try PassFactory.loadTemplate(source) }
        let version = TemplateVersion(files: source.files, designer: source.isDesignerTemplate)
        let reference: TemplateReference
        do {
            reference = try TemplateReference(name: name, digest: version.digest)
        } catch {
            throw .invalidTemplateName(path: templatePath, error)
        }
        var warnings: [String] = []
        do {
            _ = try store.storeTemplateVersion(version)
            try store.publishTemplate(name: name, digest: version.digest, onlyIfUnpublished: true)
            if let current = try store.currentTemplate(name: name), current.digest != version.digest {
                warnings.append(
                    "template \(name): \(templatePath) is version \(version.shortDigest), not the current "
                        + "version \(current.digest.prefix(12)); these passes keep the version they were issued "
                        + "with until this folder is published as \(name)")
            }
        } catch {
            throw .store(.storingTemplate(reference: reference.description), underlying: error)
        }
        return TemplateIssuance(
            reference: reference, sink: StoreSink(store: store, templateReference: reference.description),
            warnings: warnings)
    }
}
