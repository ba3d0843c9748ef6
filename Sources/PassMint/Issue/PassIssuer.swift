import Foundation
import PassArchive
import PassModel
import PassSigning
import PassTemplates
import Synchronization

/// The pipeline: record → template → pass.json → files → manifest → signature → archive.
/// Create one per (template, identity) and reuse it: the key is parsed once and template assets are hashed once.
/// Safe to use from many threads at once.
public final class PassIssuer: Sendable {
    public let template: Template
    public let identity: SigningIdentity
    private let signer: PassSigner
    /// SHA-1 of shared template assets, by path; computed on first use.
    private let assetHashes = Mutex<[String: (bytes: [UInt8], sha1: String)]>([:])

    public init(template: Template, identity: SigningIdentity) {
        self.template = template
        self.identity = identity
        self.signer = PassSigner(identity: identity)
    }

    /// Issues one signed pass in memory.
    /// - Throws: `PassMintError.invalidInput` for a bad record, `.invalidPass` when the result breaks Wallet rules.
    public func issue(_ request: IssueRequest) throws(PassMintError) -> IssuedPass {
        var record = request.record
        let recordSerial = record.removeValue(forKey: "serialNumber")
        let serial = request.serialNumber ?? recordSerial.flatMap { $0.isEmpty ? nil : $0 }
            ?? (template.hasLiteralSerialNumber ? nil : UUID().uuidString)
        let resolved: ResolvedRecord
        let rendered: RenderedPass
        do {
            resolved = try template.resolve(record)
            let context = RenderContext(
                serialNumber: serial,
                passTypeIdentifier: identity.certificate.passTypeIdentifier,
                teamIdentifier: identity.certificate.teamIdentifier,
                webServiceURL: request.webServiceURL,
                authenticationToken: request.authenticationToken)
            rendered = try template.render(resolved, context: context)
        } catch {
            throw .invalidInput("\(error)")
        }
        let passFile = "\(template.directory)/pass.json"
        let json: JSONValue
        do {
            json = try Pass(json: rendered.passJSON).jsonValue
        } catch {
            throw .invalidInput("\(passFile): \(error)")
        }
        let problems = PassValidator.validate(json)
        let errors = problems.filter { $0.severity == .error }
        guard errors.isEmpty else { throw .invalidPass(file: passFile, problems: errors) }

        var entries = rendered.files.map { ArchiveEntry(name: $0.path, bytes: $0.bytes) }
        entries.append(ArchiveEntry(name: "pass.json", bytes: JSONWriter.serialize(json)))
        let hashes = entries.map { entry in
            (path: entry.name, sha1: sha1(entry, shared: rendered.files.contains { $0.path == entry.name && $0.isSharedAsset }))
        }
        let manifest = Manifest.build(hashes)
        let signature: [UInt8]
        let archive: [UInt8]
        do {
            signature = try signer.sign(manifest)
            entries.append(ArchiveEntry(name: "manifest.json", bytes: manifest))
            entries.append(ArchiveEntry(name: "signature", bytes: signature))
            entries.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            archive = try ArchiveWriter.makeArchive(entries)
        } catch {
            throw .environment("signing or packaging failed: \(error)")
        }
        let warnings = resolved.warnings + rendered.warnings
            + problems.filter { $0.severity == .warning }.map { "\($0.code) at \($0.path): \($0.message)" }
        return IssuedPass(
            serialNumber: json["serialNumber"]?.stringValue ?? serial ?? "",
            passTypeIdentifier: json["passTypeIdentifier"]?.stringValue ?? "",
            archive: archive, passJSON: json, record: resolved.values, warnings: warnings)
    }

    private func sha1(_ entry: ArchiveEntry, shared: Bool) -> String {
        guard shared else { return Manifest.sha1Hex(entry.bytes) }
        if let cached = assetHashes.withLock({ $0[entry.name] }), cached.bytes == entry.bytes { return cached.sha1 }
        let digest = Manifest.sha1Hex(entry.bytes)
        assetHashes.withLock { $0[entry.name] = (entry.bytes, digest) }
        return digest
    }
}
