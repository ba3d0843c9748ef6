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
    /// Scales the records' photos (and caches them across passes).
    public let photos: any PhotoScaling
    /// The style whose slot sizes per-record images are scaled to.
    let imageStyles: (styles: [String], isPoster: Bool)
    private let signer: PassSigner
    /// The files every pass of one template variant shares (see `RenderedPass.variant`), hashed and compressed
    /// on first use; key: the variant, "" for the base files.
    private let variants = Mutex<[String: VariantAssets]>([:])
    /// The compiled pass.json of each template variant seen (nil: the variant cannot be compiled), made from its
    /// first pass that needed no normalization and passed Wallet's checks.
    private let blueprints = Mutex<[PassBlueprint.Shape: CompiledVariant?]>([:])

    /// What loading the identity found worth saying (a key readable by others, a certificate about to expire).
    public let identityWarnings: [String]

    /// - Parameters:
    ///   - identityWarnings: what loading the identity found worth saying, reported once by the caller.
    ///   - photos: the scaler for per-record images (PassPhotos' `PhotoScaler`, with its limits and cache); without
    ///     one, a record that names an image fails with `PhotoError.scalerUnavailable`.
    public init(
        template: Template, identity: SigningIdentity, identityWarnings: [String] = [],
        photos: any PhotoScaling = NoPhotoScaler()
    ) {
        self.template = template
        self.identity = identity
        self.identityWarnings = identityWarnings
        self.photos = photos
        self.imageStyles = Self.imageStyles(of: template.passJSON)
        // Started here, before any worker thread: starting libvips changes the environment (see VipsRuntime).
        // A failure is reported by the first record that needs an image.
        photos.prepare()
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
    /// - Throws: `PassMintError.template` for a bad record, `.photo` for an image that cannot be used,
    ///   `.invalidPass` when the result breaks Wallet rules, `.archive`/`.signing` when packaging fails.
    public func issue(_ request: IssueRequest) throws(PassMintError) -> IssuedPass {
        let made = try assemble(request)
        var own = made.own
        own.append(ArchiveEntry(name: "manifest.json", bytes: made.manifest))
        do { own.append(ArchiveEntry(name: "signature", bytes: try signer.sign(made.manifest))) } catch {
            throw .signing(error)
        }
        let archive: ArchiveParts
        do {
            archive = try made.assets.layout.archiveParts(adding: own)
        } catch { throw .archive(error) }
        return IssuedPass(
            serialNumber: made.json["serialNumber"]?.stringValue ?? made.serial ?? "",
            passTypeIdentifier: made.json["passTypeIdentifier"]?.stringValue ?? "",
            archiveParts: archive, passJSON: made.json, checkedPass: made.pass, passJSONFile: made.passFile,
            files: made.files, record: made.record, images: made.images, warnings: made.warnings)
    }

    /// What `issue(_:)` would make for `request`, without signing: its manifest.json bytes (equal to a kept pass's
    /// manifest exactly when that pass holds the same files — same template and version, record, images, token
    /// and web service — since every file and the manifest are written deterministically), record and images.
    /// - Throws: what `issue(_:)` throws before signing.
    public func unsigned(_ request: IssueRequest) throws(PassMintError) -> UnsignedPass {
        let made = try assemble(request)
        return UnsignedPass(
            manifest: made.manifest, passJSON: made.json, checkedPass: made.pass, passJSONFile: made.passFile,
            files: made.files, record: made.record, images: made.images)
    }

    /// What a store keeps of `request`'s pass, made without rendering or signing it: the record after typing
    /// and defaults (with `IssueRequest.compatiblePassKey` as `IssuedPass.record` has it) and its per-record
    /// images, so `serve` can render the pass on its first download.
    /// - Throws: `PassMintError.template` for a bad record, `.photo` for an image that cannot be used.
    public func storedRecord(_ request: IssueRequest) throws(PassMintError) -> StoredRecord {
        let made = try resolve(request)
        return StoredRecord(
            record: kept(made.resolved, request),
            images: Dictionary(uniqueKeysWithValues: made.images.map { ($0.path, $0.bytes) }),
            warnings: made.resolved.warnings)
    }

    /// The record's fields typed and defaulted, its serial number and its per-record images.
    private func resolve(_ request: IssueRequest) throws(PassMintError) -> (
        serial: String?, resolved: ResolvedRecord, images: [PassFile]
    ) {
        var record = request.record
        let recordSerial = record.removeValue(forKey: "serialNumber")
        let serial =
            request.serialNumber ?? recordSerial.flatMap { $0.isEmpty ? nil : $0 }
            ?? (template.hasLiteralSerialNumber ? nil : UUID().uuidString)
        let resolved: ResolvedRecord
        do {
            if request.rejectsUnknownKeys { try template.checkRecordKeys(record) }
            resolved = try template.resolve(record)
        } catch { throw .template(error) }
        // Before anything is rendered or signed: a photo that cannot be used fails the record with no pass made.
        let images = try perRecordImages(resolved, record: record, request: request)
        return (serial, resolved, images)
    }

    /// The record a store keeps: the resolved values, with the compatible-fallback flag.
    private func kept(_ resolved: ResolvedRecord, _ request: IssueRequest) -> [String: String] {
        var kept = resolved.values
        if request.compatiblePass { kept[IssueRequest.compatiblePassKey] = "true" }
        return kept
    }

    /// Everything of a pass but its signature and archive.
    private struct Assembly {
        var serial: String?
        var json: JSONValue
        /// Built only when the pass was checked through it (see `typedPass()`).
        var pass: Pass?
        var passFile: String
        var files: [PassFile]
        var own: [ArchiveEntry]
        var manifest: [UInt8]
        var assets: VariantAssets
        var record: [String: String]
        var images: [String: [UInt8]]
        var warnings: [String]
    }

    private func assemble(_ request: IssueRequest) throws(PassMintError) -> Assembly {
        let (serial, resolved, images) = try resolve(request)
        let context = RenderContext(
            serialNumber: serial,
            passTypeIdentifier: identity.certificate.passTypeIdentifier,
            teamIdentifier: identity.certificate.teamIdentifier,
            webServiceURL: request.webServiceURL,
            authenticationToken: request.authenticationToken, images: images,
            compatiblePass: request.compatiblePass, voided: request.voided, personalized: request.personalized)
        let passFile = template.passJSONFile
        let shape = PassBlueprint.shape(of: template, values: resolved.values, context: context)
        // A record of a compiled variant: only its holes are filled, and only the checks that read them run. One
        // the fast path finds fault with goes the whole way, so its errors are exactly what they always were.
        let checked: CheckedPass
        if let compiled = compiled(shape, values: resolved.values),
            let fast = try compiledPass(compiled, resolved, context: context)
        {
            checked = fast
        } else {
            checked = try renderedPass(resolved, context: context, passFile: passFile)
            if !checked.normalized, !checked.problems.contains(where: { $0.severity == .error }) {
                compile(shape, values: resolved.values, context: context, root: checked.json)
            }
        }
        let (rendered, json, problems) = (checked.rendered, checked.json, checked.problems)
        // A serial outside the grammar could never be fetched or registered by URL, nor be a file name.
        if let issued = json["serialNumber"]?.stringValue, !IdentifierGrammar.serialNumber.accepts(issued) {
            throw .invalidSerialNumber(file: passFile, serial: issued)
        }
        let errors = problems.filter { $0.severity == .error }
        guard errors.isEmpty else { throw .invalidPass(file: passFile, problems: errors) }

        let passBytes = checked.bytes ?? JSONWriter.serialize(json)
        var own = [ArchiveEntry(name: "pass.json", bytes: passBytes)]
        var hashes = [(path: "pass.json", sha1: Manifest.sha1Hex(passBytes))]
        // Template bytes go through the variant's asset cache: shared assets, and the images a tier swaps in
        // (constant per tier, so `isSharedAsset` is false for them). Only pass.strings rendered with this record's
        // values differ per pass; caching those would grow the cache with every pass.
        var shared: [PassFile] = []
        for file in rendered.files {
            if !file.isPerRecord, file.isSharedAsset || file.path.hasSuffix(".png") {
                shared.append(file)
            } else {
                own.append(ArchiveEntry(name: file.path, bytes: file.bytes))
                hashes.append((file.path, Manifest.sha1Hex(file.bytes)))
            }
        }
        // Files a per-record image replaced are missing from the shared set, so passes with and without a photo
        // for a slot are cached as different variants (neither evicts the other's compressed assets).
        var variant = rendered.variant ?? ""
        if !images.isEmpty { variant += "\u{1F}" + images.map(\.path).joined(separator: ",") }
        let assets: VariantAssets
        do { assets = try variantAssets(variant, shared) } catch { throw .archive(error) }
        let manifest = assets.manifest.build(adding: hashes)
        let warnings =
            resolved.warnings + rendered.warnings
            + problems.filter { $0.severity == .warning }.map { "\($0.code) at \($0.path): \($0.message)" }
        return Assembly(
            serial: serial, json: json, pass: checked.pass, passFile: passFile, files: rendered.files, own: own,
            manifest: manifest, assets: assets,
            record: kept(resolved, request),
            images: Dictionary(uniqueKeysWithValues: images.map { ($0.path, $0.bytes) }), warnings: warnings)
    }

    /// A pass rendered and checked, before its files are packed.
    private struct CheckedPass {
        var rendered: RenderedPass
        /// pass.json as written (its strict form when the lenient reader normalized values).
        var json: JSONValue
        /// Built only when the pass was checked through it (see `typedPass()`).
        var pass: Pass?
        var problems: [Problem]
        /// pass.json's bytes when a blueprint wrote them.
        var bytes: [UInt8]?
        var normalized = false
    }

    /// The pass of a compiled variant, or nil when its checks find an error (the whole way then says which).
    private func compiledPass(
        _ compiled: CompiledVariant, _ resolved: ResolvedRecord, context: RenderContext
    ) throws(PassMintError) -> CheckedPass? {
        let filled: (passJSON: [UInt8], rendered: RenderedPass)
        do { filled = try compiled.blueprint.fill(resolved, context: context) } catch { throw .template(error) }
        let problems = compiled.plan.validate(filled.rendered.passJSON.objectValue ?? [:])
        guard !problems.contains(where: { $0.severity == .error }) else { return nil }
        return CheckedPass(
            rendered: filled.rendered, json: filled.rendered.passJSON, problems: problems, bytes: filled.passJSON)
    }

    /// The pass rendered the whole way: the template's tree, its typed model and every check.
    private func renderedPass(
        _ resolved: ResolvedRecord, context: RenderContext, passFile: String
    ) throws(PassMintError) -> CheckedPass {
        let rendered: RenderedPass
        do { rendered = try template.render(resolved, context: context) } catch { throw .template(error) }
        do {
            // The typed model is the check that every key has a representable value; its strict form differs
            // from the input only at the paths it reports as normalized, so building it is skipped when there
            // are none.
            let parsed = try Pass.parse(rendered.passJSON)
            let normalized = !parsed.normalizedPaths.isEmpty
            let json = normalized ? parsed.pass.jsonValue : rendered.passJSON
            return CheckedPass(
                rendered: rendered, json: json, pass: parsed.pass, problems: PassValidator.validate(json),
                normalized: normalized)
        } catch {
            throw .renderedPass(file: passFile, error)
        }
    }

    /// The compiled variant for a record of `shape` with `values`, when there is one.
    private func compiled(_ shape: PassBlueprint.Shape, values: [String: String]) -> CompiledVariant? {
        guard !PassBlueprint.changesKeys(values) else { return nil }
        return blueprints.withLock { $0[shape] ?? nil }
    }

    /// Compiles the variant of a pass that went the whole way (`root` is its checked pass.json), once per shape.
    private func compile(
        _ shape: PassBlueprint.Shape, values: [String: String], context: RenderContext, root: JSONValue
    ) {
        guard blueprints.withLock({ $0[shape] == nil }) else { return }
        let made = PassBlueprint(template, values: values, context: context).map {
            CompiledVariant(
                blueprint: $0,
                plan: ValidationPlan(
                    root.objectValue ?? [:], varying: $0.varyingKeys, varyingFields: $0.varyingFields))
        }
        blueprints.withLock { $0[shape] = $0[shape] ?? made }
    }

    /// `json` as the typed model: `checked` when the issuer built it, else parsed now.
    static func typed(_ json: JSONValue, checked: Pass?, file: String) throws(PassMintError) -> Pass {
        if let checked { return checked }
        do { return try Pass(json: json) } catch { throw .renderedPass(file: file, error) }
    }

    /// The shared files of one variant, hashed and compressed once. A variant's files come from the immutable
    /// template, so its first pass decides them; a later pass whose shared files differ in names or bytes (which
    /// would be a rendering bug) is prepared on its own rather than given the wrong files.
    private func variantAssets(_ variant: String, _ files: [PassFile]) throws(ArchiveError) -> VariantAssets {
        if let known = variants.withLock({ $0[variant] }), known.matches(files) { return known }
        let made = try VariantAssets(files)
        variants.withLock { $0[variant] = $0[variant] ?? made }
        return made
    }
}

/// A record as a store keeps it, made without rendering its pass (`PassIssuer.storedRecord(_:)`).
public struct StoredRecord: Sendable {
    /// As `IssuedPass.record`.
    public let record: [String: String]
    /// As `IssuedPass.images`.
    public let images: [String: [UInt8]]
    /// What resolving the record found worth saying (unknown keys, defaults).
    public let warnings: [String]
}

/// A pass made but not signed (`PassIssuer.unsigned(_:)`).
public struct UnsignedPass: Sendable {
    /// The manifest.json bytes the signature would cover.
    public let manifest: [UInt8]
    /// As `IssuedPass.passJSON`.
    public let passJSON: JSONValue
    let checkedPass: Pass?
    let passJSONFile: String
    /// As `IssuedPass.files`.
    public let files: [PassFile]
    /// As `IssuedPass.record`.
    public let record: [String: String]
    /// As `IssuedPass.images`.
    public let images: [String: [UInt8]]

    /// As `IssuedPass.typedPass()`.
    public func typedPass() throws(PassMintError) -> Pass {
        try PassIssuer.typed(passJSON, checked: checkedPass, file: passJSONFile)
    }
}

/// A template variant's pass.json compiled, with the checks its varying keys need.
// Classes, not structs (here and below): every worker reads them for every pass, and each field of a struct
// would be retained on every read, from several threads at once.
private final class CompiledVariant: Sendable {
    let blueprint: PassBlueprint
    let plan: ValidationPlan

    init(blueprint: PassBlueprint, plan: ValidationPlan) {
        self.blueprint = blueprint
        self.plan = plan
    }
}

/// A variant's shared files: their names, manifest entries and the archive records every pass of the variant copies.
private final class VariantAssets: Sendable {
    let names: [String]
    let bytes: [[UInt8]]
    /// The files' archive records sorted, for each pass to add its own.
    let layout: SharedAssetLayout
    /// manifest.json with these files' entries written, for each pass to add its own.
    let manifest: Manifest.Prepared

    init(_ files: [PassFile]) throws(ArchiveError) {
        names = files.map(\.path)
        manifest = Manifest.Prepared(files.map { (path: $0.path, sha1: Manifest.sha1Hex($0.bytes)) })
        bytes = files.map(\.bytes)
        let cache = try AssetCache(files.map { ArchiveEntry(name: $0.path, bytes: $0.bytes) })
        layout = try SharedAssetLayout(cache, names: names)
    }

    /// Same names and bytes (the same template buffers compare by identity, without reading them).
    func matches(_ files: [PassFile]) -> Bool {
        files.count == names.count && zip(files, zip(names, bytes)).allSatisfy { $0.path == $1.0 && $0.bytes == $1.1 }
    }
}
