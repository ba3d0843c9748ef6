import PassMint
import PassSigning
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

    /// Signs the pass from its stored record; serial, pass type and token never change across updates.
    public func render(_ pass: StoredPass) throws -> [UInt8] {
        let (fields, url) = StoredRecordKeys.split(pass.record)
        let issued = try issuer(for: pass.templatePath).issue(
            IssueRequest(
                record: fields, serialNumber: pass.serialNumber, webServiceURL: url,
                authenticationToken: url == nil ? nil : pass.authenticationToken,
                compatiblePass: pass.record[IssueRequest.compatiblePassKey] == "true"))
        return issued.archive
    }

    /// Checks a change against the template: unknown fields, types and enum values; returns the new record.
    public func validate(_ pass: StoredPass, changes: [String: String]) throws -> [String: String] {
        if let reserved = changes.keys.first(where: { $0.hasPrefix("@") || $0 == "serialNumber" }) {
            throw PassMintError.invalidInput("'\(reserved)' cannot be changed; serial number, pass type and token stay fixed")
        }
        let template = try issuer(for: pass.templatePath).template
        // Reserved keys (barcode.message, relevantDate.start, …) are stored with the record like fields.
        let known = Set(template.recordKeys)
        if let unknown = changes.keys.sorted().first(where: { !known.contains($0) }) {
            throw PassMintError.invalidInput(
                "'\(unknown)' is not a field of template \(pass.templatePath); fields: \(known.sorted().joined(separator: ", "))")
        }
        let (fields, url) = StoredRecordKeys.split(pass.record)
        let resolved = try template.resolve(fields.merging(changes) { _, new in new })
        var record = resolved.values
        record.removeValue(forKey: "serialNumber")
        if let url { record[StoredRecordKeys.webServiceURL] = url }
        record[IssueRequest.compatiblePassKey] = pass.record[IssueRequest.compatiblePassKey]
        return record
    }
}
