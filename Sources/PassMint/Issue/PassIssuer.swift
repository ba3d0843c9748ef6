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
    /// Pre-compressed assets per variant (key: names and hashes).
    private let assetCaches = Mutex<[String: AssetCache]>([:])

    public init(template: Template, identity: SigningIdentity) {
        self.template = template
        self.identity = identity
        self.signer = PassSigner(identity: identity)
    }

    /// Findings about the template itself, reported once rather than per pass: what the lenient reader forgave in
    /// pass.json (Wallet itself would reject it; the output is always strict) and the loader's warnings.
    public var templateWarnings: [String] {
        PassValidator.leniencyProblems(template.leniencies, file: template.passJSONFile).map {
            "\($0.code) at \($0.path): \($0.message)"
        } + template.warnings
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
            // The typed model is the check that every key has a representable value; its strict form differs
            // from the input only at the paths it reports as normalized, so building it is skipped when there
            // are none (the usual case, and about 3% of a batch's CPU).
            let parsed = try Pass.parse(rendered.passJSON)
            json = parsed.normalizedPaths.isEmpty ? rendered.passJSON : parsed.pass.jsonValue
        } catch {
            throw .invalidInput("\(passFile): \(error)")
        }
        let problems = PassValidator.validate(json)
        let errors = problems.filter { $0.severity == .error }
        guard errors.isEmpty else { throw .invalidPass(file: passFile, problems: errors) }

        let passBytes = JSONWriter.serialize(json)
        var own = [ArchiveEntry(name: "pass.json", bytes: passBytes)]
        var hashes = [(path: "pass.json", sha1: Manifest.sha1Hex(passBytes))]
        var shared: [ArchiveEntry] = []
        var sharedHashes: [String] = []
        for file in rendered.files {
            // Template bytes go through the per-variant asset cache: shared assets, and the images a tier swaps in
            // (constant per tier, so `isSharedAsset` is false for them). Only pass.strings rendered with this
            // record's values differ per pass; caching those would grow the cache with every pass.
            if file.isSharedAsset || file.path.hasSuffix(".png") {
                let digest = assetHash(file)
                shared.append(ArchiveEntry(name: file.path, bytes: file.bytes))
                sharedHashes.append(digest)
                hashes.append((file.path, digest))
            } else {
                own.append(ArchiveEntry(name: file.path, bytes: file.bytes))
                hashes.append((file.path, Manifest.sha1Hex(file.bytes)))
            }
        }
        let manifest = Manifest.build(hashes)
        let archive: ArchiveParts
        do {
            own.append(ArchiveEntry(name: "manifest.json", bytes: manifest))
            own.append(ArchiveEntry(name: "signature", bytes: try signer.sign(manifest)))
            let cache = try assetCache(for: shared, hashes: sharedHashes)
            archive = try ArchiveWriter.makeArchiveParts(own, sharedAssets: cache, sharedNames: shared.map(\.name))
        } catch {
            throw .environment("signing or packaging failed: \(error)")
        }
        let warnings = resolved.warnings + rendered.warnings
            + problems.filter { $0.severity == .warning }.map { "\($0.code) at \($0.path): \($0.message)" }
        return IssuedPass(
            serialNumber: json["serialNumber"]?.stringValue ?? serial ?? "",
            passTypeIdentifier: json["passTypeIdentifier"]?.stringValue ?? "",
            archiveParts: archive, passJSON: json, record: resolved.values, warnings: warnings)
    }

    /// SHA-1 of a template asset, computed once per distinct content of each path.
    private func assetHash(_ file: PassFile) -> String {
        if let cached = assetHashes.withLock({ $0[file.path] }), cached.bytes == file.bytes { return cached.sha1 }
        let digest = Manifest.sha1Hex(file.bytes)
        assetHashes.withLock { $0[file.path] = (file.bytes, digest) }
        return digest
    }

    /// The assets of one pass variant (e.g. one tier's images), compressed once and copied raw into every archive.
    private func assetCache(for assets: [ArchiveEntry], hashes: [String]) throws(ArchiveError) -> AssetCache {
        let key = zip(assets, hashes).map { "\($0.name):\($1)" }.joined(separator: "\n")
        if let cache = assetCaches.withLock({ $0[key] }) { return cache }
        let cache = try AssetCache(assets)
        assetCaches.withLock { $0[key] = cache }
        return cache
    }
}
