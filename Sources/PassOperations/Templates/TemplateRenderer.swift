import PassArchive
import PassMint
import PassSigning
import PassTemplates
import Synchronization
import PassStore

/// Renders stored passes through the same pipeline as `generate`: one issuer per template, loaded once per signing
/// identity. The identity can be replaced while requests render (`serve` on SIGHUP).
///
/// A pass stored with a `TemplateReference` is rendered from the version the store holds, never from a folder on
/// disk, and its issuer is cached by digest: a version never changes, so that cache needs no invalidation. A pass
/// stored by an older PassMint names a folder, loaded from disk on first use as before.
package final class TemplateRenderer: Sendable {
    private struct State {
        var identity: SigningIdentity
        /// Signs personalization tokens with the same identity (its preparation costs one signature).
        var signer: PassSigner
        /// Grows with each replaced identity; issuers and cached bodies of an older one are not used again.
        var generation = 0
        var issuers: [String: PassIssuer] = [:]
    }

    private let state: Mutex<State>
    private let templates: (any TemplateVersionStore)?
    /// Scales the photos a record names, for every issuer of this renderer (PassPhotos' `PhotoScaler`).
    private let photos: any PhotoScaling

    /// - Parameters:
    ///   - templates: where versioned templates are read (the store the passes are in); without it a pass that
    ///     names a template version cannot be rendered.
    ///   - photos: scales the photos records name; without one, a pass that needs a photo scaled fails with
    ///     `PhotoError.scalerUnavailable`.
    package init(
        identity: SigningIdentity, templates: (any TemplateVersionStore)? = nil,
        photos: any PhotoScaling = NoPhotoScaler()
    ) {
        state = Mutex(State(identity: identity, signer: PassSigner(identity: identity)))
        self.templates = templates
        self.photos = photos
    }

    /// The identity passes are signed with now.
    package var identity: SigningIdentity { state.withLock { $0.identity } }

    package var identityGeneration: Int { state.withLock { $0.generation } }

    /// Signs every pass rendered from now on with `identity`. Renders already under way finish with the old one
    /// and say so by their generation, so the cache does not keep them.
    package func replaceIdentity(_ identity: SigningIdentity) {
        let signer = PassSigner(identity: identity)
        state.withLock { state in
            state.identity = identity
            state.signer = signer
            state.generation += 1
            state.issuers = [:]
        }
    }

    /// A detached signature over `content` by the identity in use (personalization tokens).
    package func sign(_ content: [UInt8]) throws(SigningError) -> [UInt8] {
        try state.withLock { $0.signer }.sign(content)
    }

    /// The issuer for a stored `template` value: a template version reference or a folder (loaded on first use).
    package func issuer(for templatePath: String) throws(OperationError) -> PassIssuer {
        try signingIssuer(for: templatePath).issuer
    }

    /// The issuer for a stored `template` value with the generation of the identity it signs with.
    private func signingIssuer(for templatePath: String) throws(OperationError) -> (
        issuer: PassIssuer, generation: Int
    ) {
        let reference = TemplateReference(templatePath)
        let key = reference.map { TemplateReference.prefix + $0.digest } ?? templatePath
        let (cached, identity, generation) = state.withLock { ($0.issuers[key], $0.identity, $0.generation) }
        if let cached { return (cached, generation) }
        let template: Template
        if let reference {
            template = try storedTemplate(reference)
        } else {
            do { template = try PassFactory.loadTemplate(templatePath) } catch { throw .pipeline(error) }
        }
        let issuer = PassIssuer(template: template, identity: identity, photos: photos)
        // Loaded outside the lock; kept only if the identity was not replaced meanwhile.
        state.withLock { if $0.generation == generation { $0.issuers[key] = issuer } }
        return (issuer, generation)
    }

    /// An issuer for a template that is not stored yet (a publish renders stored passes with it as a check).
    package func issuer(for template: Template) -> PassIssuer {
        PassIssuer(template: template, identity: self.identity, photos: photos)
    }

    /// Assembles a stored version into a template; messages name it `NAME@<short digest>`.
    /// - Throws: `PassMintError.template` when the stored files do not make a template, `.photo` when an image is
    ///   over the limits of member photos.
    package static func template(_ version: TemplateVersion, name: String) throws(PassMintError) -> Template {
        // A Designer template is recognised by its folder name when it has no tooling.json.
        let label = "\(name)@\(version.shortDigest)" + (version.designer ? ".pkpasstemplate" : "")
        return try PassFactory.loadTemplate(TemplateSource(name: label, files: version.files))
    }

    private func storedTemplate(_ reference: TemplateReference) throws(OperationError) -> Template {
        guard let templates else { throw .templateNotStored(reference: reference.description) }
        let version: TemplateVersion?
        do {
            version = try templates.templateVersion(digest: reference.digest)
        } catch {
            throw .store(.readingTemplate(reference: reference.description), underlying: error)
        }
        guard let version else { throw .templateVersionMissing(reference: reference.description) }
        do { return try Self.template(version, name: reference.name) } catch { throw .pipeline(error) }
    }

    /// Signs the pass from its stored record and images; serial, pass type and token never change across updates.
    package func render(_ pass: StoredPass) throws(OperationError) -> [UInt8] {
        try issue(pass).archive
    }

    /// The signed pass in pieces (its template assets stay in the issuer's asset cache) and the generation of the
    /// identity that signed it.
    package func renderSigned(_ pass: StoredPass) throws(OperationError) -> (
        body: ArchiveParts, identityGeneration: Int
    ) {
        let (issuer, generation) = try signingIssuer(for: pass.templatePath)
        do { return (try issuer.issue(Self.request(pass)).archiveParts, generation) } catch {
            throw .pipeline(error)
        }
    }

    /// Issues the stored pass again, with its stored images.
    /// - Parameters:
    ///   - photos: record keys naming new images (`image.SLOT` keys, image fields) → paths; each replaces the
    ///     stored images of its slot.
    ///   - imageFolder: the folder relative photo paths start at and must stay inside (nil: current directory).
    package func issue(_ pass: StoredPass, photos: [String: String] = [:], imageFolder: String? = nil)
        throws(OperationError) -> IssuedPass
    {
        try issue(pass, with: issuer(for: pass.templatePath), photos: photos, imageFolder: imageFolder)
    }

    /// Issues the stored pass with `issuer`'s template (the stored images included).
    package func issue(
        _ pass: StoredPass, with issuer: PassIssuer, photos: [String: String] = [:], imageFolder: String? = nil
    ) throws(OperationError) -> IssuedPass {
        do { return try issuer.issue(Self.request(pass, photos: photos, imageFolder: imageFolder)) } catch {
            throw .pipeline(error)
        }
    }

    /// The stored pass as `issue` would make it, without the signature (its pass.json and files).
    package func unsigned(_ pass: StoredPass, with issuer: PassIssuer) throws(PassMintError) -> UnsignedPass {
        try issuer.unsigned(Self.request(pass))
    }

    private static func request(_ pass: StoredPass, photos: [String: String] = [:], imageFolder: String? = nil)
        -> IssueRequest
    {
        IssueRequest(
            record: pass.record.merging(photos) { _, new in new }, serialNumber: pass.serialNumber,
            webServiceURL: pass.webServiceURL,
            authenticationToken: pass.webServiceURL == nil ? nil : pass.authenticationToken,
            compatiblePass: pass.compatiblePass, imageFolder: imageFolder, storedImages: pass.images,
            voided: pass.voided, personalized: pass.personalized)
    }

    /// Whether Apple's rewards flow may personalize `pass` (wallet-spec §6): its template has
    /// `personalization.json` and pass.json `nfc`, the identity in use is an NFC-enabled Pass Type ID certificate
    /// (Wallet takes no personalizable pass without both), and the pass has a web service URL for Wallet to send
    /// the sign-up to. False when the template cannot be loaded.
    package func isPersonalizable(_ pass: StoredPass) -> Bool {
        guard pass.webServiceURL != nil, identity.certificate.isNFCEnabled,
            let template = try? issuer(for: pass.templatePath).template
        else { return false }
        return template.isPersonalizable && template.passJSON["nfc"] != nil
    }

    /// The changes that name images (`image.SLOT` keys and the template's image fields).
    package func imageChanges(_ pass: StoredPass, changes: [String: String]) throws(OperationError)
        -> [String: String]
    {
        let template = try issuer(for: pass.templatePath).template
        let imageFields = Set(template.fields.filter { $0.kind == .image }.map(\.name))
        return changes.filter { $0.key.hasPrefix(Template.imageKeyPrefix) || imageFields.contains($0.key) }
    }

    /// Checks a change against the template: unknown fields, types and enum values; returns the new record.
    /// - Parameter allowImages: accept changes that name image files (a local update reads them); an HTTP caller
    ///   must not make the service read files of its choosing, so the admin API leaves this false.
    package func validate(_ pass: StoredPass, changes: [String: String], allowImages: Bool = false)
        throws(OperationError) -> [String: String]
    {
        try validate(pass, change: RecordChange(values: changes), allowImages: allowImages)
    }

    /// Checks a change (values to set, amounts to add) against the template and applies it to `pass`'s record:
    /// unknown fields, types, enum values and bounds; returns the new record. Amounts are added to the record
    /// given, so inside `PassStore.modifyPass` they add to the value stored at that moment.
    /// - Throws: `OperationError.change` naming the field and the reason (a reserved key, an image over HTTP,
    ///   an unknown field, a value or amount the template refuses); any other case when the pass's template
    ///   cannot be loaded (the store unavailable, the version missing): the server's fault, not the change's.
    package func validate(_ pass: StoredPass, change: RecordChange, allowImages: Bool = false)
        throws(OperationError) -> [String: String]
    {
        let changes = change.values
        if let reserved = (Array(changes.keys) + Array(change.amounts.keys)).first(where: {
            $0.hasPrefix("@") || $0 == "serialNumber"
        }) {
            throw .change(.reservedKey(reserved))
        }
        let images = try imageChanges(pass, changes: changes)
        if !allowImages, let image = images.keys.sorted().first {
            throw .change(.imageOverHTTP(image))
        }
        let template = try issuer(for: pass.templatePath).template
        // Reserved keys (barcode.message, relevantDate.start, …) are stored with the record like fields.
        let known = Set(template.recordKeys)
        let fieldChanges = changes.filter { images[$0.key] == nil }
        if let unknown = (Array(fieldChanges.keys) + Array(change.amounts.keys)).sorted().first(where: {
            !known.contains($0)
        }) {
            throw .change(.unknownField(unknown, template: pass.templatePath, fields: known.sorted()))
        }
        let resolved: ResolvedRecord
        do {
            let applied = try template.applying(
                RecordChange(values: fieldChanges, amounts: change.amounts), to: pass.record)
            resolved = try template.resolve(applied)
        } catch {
            throw .change(.value(error))
        }
        var record = resolved.values
        record.removeValue(forKey: "serialNumber")
        return record
    }
}
