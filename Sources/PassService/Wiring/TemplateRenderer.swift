import PassMint
import PassSigning
import PassTemplates
import Synchronization

/// Renders stored passes through the same pipeline as `generate`: one issuer per template folder, loaded once.
public final class TemplateRenderer: PassRenderer {
    private let identity: SigningIdentity
    private let issuers = Mutex<[String: PassIssuer]>([:])

    public init(identity: SigningIdentity) {
        self.identity = identity
    }

    /// The issuer for a template folder (loaded on first use).
    public func issuer(for templatePath: String) throws(PassMintError) -> PassIssuer {
        if let issuer = issuers.withLock({ $0[templatePath] }) { return issuer }
        let issuer = PassIssuer(template: try PassFactory.loadTemplate(templatePath), identity: identity)
        issuers.withLock { $0[templatePath] = issuer }
        return issuer
    }

    /// Signs the pass from its stored record and images; serial, pass type and token never change across updates.
    public func render(_ pass: StoredPass) throws -> [UInt8] {
        try issue(pass).archive
    }

    /// Issues the stored pass again, with its stored images.
    /// - Parameters:
    ///   - photos: record keys naming new images (`image.SLOT` keys, image fields) → paths; each replaces the
    ///     stored images of its slot.
    ///   - imageFolder: the folder relative photo paths start at and must stay inside (nil: current directory).
    public func issue(_ pass: StoredPass, photos: [String: String] = [:], imageFolder: String? = nil) throws
        -> IssuedPass
    {
        try issuer(for: pass.templatePath).issue(
            IssueRequest(
                record: pass.record.merging(photos) { _, new in new }, serialNumber: pass.serialNumber,
                webServiceURL: pass.webServiceURL,
                authenticationToken: pass.webServiceURL == nil ? nil : pass.authenticationToken,
                compatiblePass: pass.compatiblePass, imageFolder: imageFolder, storedImages: pass.images,
                voided: pass.voided))
    }

    /// The changes that name images (`image.SLOT` keys and the template's image fields).
    public func imageChanges(_ pass: StoredPass, changes: [String: String]) throws -> [String: String] {
        let template = try issuer(for: pass.templatePath).template
        let imageFields = Set(template.fields.filter { $0.kind == .image }.map(\.name))
        return changes.filter { $0.key.hasPrefix(Template.imageKeyPrefix) || imageFields.contains($0.key) }
    }

    /// Checks a change against the template: unknown fields, types and enum values; returns the new record.
    /// - Parameter allowImages: accept changes that name image files (a local update reads them); an HTTP caller
    ///   must not make the service read files of its choosing, so the admin API leaves this false.
    public func validate(_ pass: StoredPass, changes: [String: String], allowImages: Bool = false) throws
        -> [String: String]
    {
        if let reserved = changes.keys.first(where: { $0.hasPrefix("@") || $0 == "serialNumber" }) {
            throw PassMintError.invalidInput(
                "'\(reserved)' cannot be changed; serial number, pass type and token stay fixed")
        }
        let images = try imageChanges(pass, changes: changes)
        if !allowImages, let image = images.keys.sorted().first {
            throw PassMintError.invalidInput(
                "'\(image)' names an image file; images can only be changed by a local update on the service's machine, not over HTTP"
            )
        }
        let template = try issuer(for: pass.templatePath).template
        // Reserved keys (barcode.message, relevantDate.start, …) are stored with the record like fields.
        let known = Set(template.recordKeys)
        let fieldChanges = changes.filter { images[$0.key] == nil }
        if let unknown = fieldChanges.keys.sorted().first(where: { !known.contains($0) }) {
            throw PassMintError.invalidInput(
                "'\(unknown)' is not a field of template \(pass.templatePath); fields: \(known.sorted().joined(separator: ", "))"
            )
        }
        let resolved = try template.resolve(pass.record.merging(fieldChanges) { _, new in new })
        var record = resolved.values
        record.removeValue(forKey: "serialNumber")
        return record
    }
}
