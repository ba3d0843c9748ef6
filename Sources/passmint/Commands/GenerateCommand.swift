import Foundation
import PassGoogle
import PassMint
import PassModel
import PassPhotos
import PassSigning
import PassStore
import PassOperations

/// `passmint generate`: one signed pass from a template.
struct GenerateCommand: Command {
    static let template = Option<String>(
        "template", "DIR", "template folder, .pkpasstemplate folder, or zipped .pkpasstemplate / .zip")
    static let set = RepeatedOption("set", "KEY=VALUE", "value of a template field, pass field key or reserved key")
    static let data = Option<String>("data", "FILE", "JSON object of field values")
    static let images = Option<String>("images", "DIR", "folder that image paths start at and must stay inside")
    static let serial = Option<String>(
        "serial", "S", "serial number (default: the record's serialNumber or a new UUID)")
    static let out = Option<String>("out", "FILE", "where to write the .pkpass")
    static let compatible = Flag("compatible", "derive a generic fallback from posterGeneric for iOS 26 and earlier")
    static let webServiceURL = Option<String>(
        "web-service-url", "URL", "update service base URL written into the pass (needs --db)")
    static let startOver = Flag(
        "start-over", "with --db: replace a stored serial by a new pass with a new token (phones get 401)")

    static let spec = CommandSpec(
        name: "generate",
        abstract: "make one signed .pkpass from a template",
        usage:
            "generate --template DIR [--set key=value]… [--data FILE.json] [--images DIR] [--serial S] [--compatible] [--db FILE | --postgres URL] [--template-name NAME] [--start-over] [--google …] --out FILE.pkpass",
        discussion: """
            Values come from --data (a JSON object) and then --set (which wins). Template fields not given take
            their defaults from template.json. A Pass Designer .pkpasstemplate (folder or zipped) is personalized
            by field key: --set MEMBER_NAME=Ada sets every pass field with that key. Reserved keys:
            serialNumber, barcode.message, barcode.altText, relevantDate.start, relevantDate.end, expirationDate,
            image.SLOT.
            A key that is neither a field nor reserved is an error. The pass is written to a temporary name and
            renamed into place.
            A record can carry a photo for an image slot: --set image.thumbnail=photos/ada.jpg (or an image field
            of template.json). PNG or JPEG, scaled to the slot's @1x/@2x/@3x sizes; relative paths start at the
            current directory (--data values: at the data file's folder), or at --images DIR, and must stay inside it.
            With --db, a serial already stored is not replaced: the pass is issued with the stored pass's
            authentication token and stored as its new version (new tag, its registered devices pushed; its
            registrations, distribution link and install figures kept), or reported unchanged when the values are
            the stored ones. --start-over issues it as a new pass instead (new token, new link): the phones that
            hold the old one can no longer update it (the service answers them 401).
            --google also makes the pass's Google Wallet class and object and prints a line
            "google: https://pay.google.com/gp/v/save/<JWT>" after the line naming the .pkpass. The link carries
            the class and the object while its JWT stays within 1,800 characters; a longer one needs the class
            inserted through the Google Wallet API first, so offline it is refused (publish the class, then give
            --google-class-published and the link carries the object only). Images go to Google as URLs under
            --google-image-base (default: --link-base, else --web-service-url), where `serve` publishes them.
            """,
        options: [
            template,
            set,
            data,
            images,
            serial,
            out,
            compatible,
            webServiceURL,
            LinkArguments.option,
            TemplateNameArgument.option,
            startOver,
            TrustArguments.option,
        ]
            + GoogleArguments.options
            + StoreArguments.options(
                dbHelp:
                    "store the pass in this SQLite database for `passmint serve` ($PASSMINT_DB with --web-service-url)")
            + IdentityArguments.options,
        examples: [
            "passmint generate --template Templates/loyalty --out loyalty.pkpass",
            "passmint generate --template Templates/status --set memberName='Ada Lovelace' --set tier=Gold --out ada.pkpass",
            "passmint generate --template Templates/designer-club.pkpasstemplate --set MEMBER_NAME='Ada Lovelace' --out ada.pkpass",
            "passmint generate --template Templates/status --set image.thumbnail=photos/ada.jpg --out ada.pkpass",
            "passmint generate --template Templates/loyalty --google --google-image-base https://passes.example.com --google-class-published --out ada.pkpass",
        ]
    )

    let templateDir: String
    let record: [String: String]
    let serial: String?
    let out: String
    let identity: IdentityOptions
    let store: StoreLocation?
    let webServiceURL: String?
    let linkBase: String?
    let trust: TrustRoots
    let compatible: Bool
    let imageFolder: String?
    let templateName: String?
    let startOver: Bool
    let google: GoogleArguments?
    /// Record keys whose values came from --data (their image paths start at the data file's folder).
    let imageFolders: [String: String]

    init(_ args: ParsedArguments) throws(CLIError) {
        templateDir = try args.required(Self.template, of: Self.spec)
        out = try args.required(Self.out, of: Self.spec)
        serial = args[Self.serial]
        identity = IdentityArguments.make(args)
        // PASSMINT_DATABASE_URL names the service's store: only a pass bound to the service goes there.
        store = try StoreArguments.location(
            args,
            environment: args[Self.webServiceURL] == nil ? [:] : ProcessInfo.processInfo.environment)
        webServiceURL = args[Self.webServiceURL]
        trust = try TrustArguments.load(args)
        compatible = args[Self.compatible]
        if webServiceURL != nil, store == nil {
            throw .usage("--web-service-url needs --db FILE or --postgres URL so `passmint serve` can find the pass")
        }
        linkBase = try LinkArguments.base(args)
        if linkBase != nil, store == nil {
            throw .usage("--link-base needs --db FILE or --postgres URL: a link opens a stored pass")
        }
        imageFolder = args[Self.images]
        templateName = try TemplateNameArgument.value(args, store: store)
        startOver = args[Self.startOver]
        google = try GoogleArguments(args, linkBase: linkBase, webServiceURL: webServiceURL)
        if startOver, store == nil {
            throw .usage("--start-over replaces a stored pass; give --db FILE or --postgres URL")
        }
        var record: [String: String] = [:]
        var fromData: [String] = []
        var dataFolder = "."
        if let data = args[Self.data] {
            do { record = try RecordFile.load(path: data) } catch { throw CLIError(error) }
            fromData = Array(record.keys)
            let folder = (data as NSString).deletingLastPathComponent
            dataFolder = folder.isEmpty ? "." : folder
        }
        let set = try args.keyValues(Self.set)
        record.merge(set) { _, new in new }
        self.record = record
        var folders: [String: String] = [:]
        if imageFolder == nil {
            for key in fromData where set[key] == nil { folders[key] = dataFolder }
        }
        imageFolders = folders
    }

    /// The pass already stored under the serial asked for (none for a new UUID, or when starting over).
    private func stored(in sink: any IssuedPassSink) throws(PassMintError) -> StoredIssue? {
        guard !startOver, let serial = serial ?? record["serialNumber"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            return nil
        }
        do { return try sink.storedPasses(serials: [serial])[serial] } catch {
            throw .sink(.readingStoredPass(serial: serial), underlying: error)
        }
    }

    func run() throws(CLIError) -> Int32 {
        do {
            // The template's version is stored before the pass, which then names it instead of the folder.
            let issuance = try store.map { store throws(OperationError) in
                try TemplateIssuance.prepare(store: store, templatePath: templateDir, name: templateName)
            }
            for warning in issuance?.warnings ?? [] { Console.error("warning: \(warning)") }
            let issuer = try PassFactory.issuer(
                templateDirectory: templateDir, identity: identity, trust: trust, photos: PhotoScaler())
            let previous = try issuance.flatMap { issuance throws(PassMintError) in try stored(in: issuance.sink) }
            if let previous, let ours = issuer.identity.certificate.passTypeIdentifier,
                previous.passTypeIdentifier != ours
            {
                throw CLIError.invalid(
                    "--serial: serial \(serial ?? record["serialNumber"] ?? "") is stored as a pass of type "
                        + "\(previous.passTypeIdentifier), and this certificate signs \(ours); give another --serial")
            }
            let token = webServiceURL.map { _ in previous?.authenticationToken ?? AuthenticationToken.generate() }
            let pass = try issuer.issue(
                IssueRequest(
                    record: record, serialNumber: serial, webServiceURL: webServiceURL, authenticationToken: token,
                    compatiblePass: compatible, rejectsUnknownKeys: true, imageFolder: imageFolder,
                    imageFolders: imageFolders, storedImages: previous?.images ?? [:], voided: previous?.voided ?? false
                ))
            for warning in issuer.identityWarnings + issuer.templateWarnings + pass.warnings {
                Console.error("warning: \(warning)")
            }
            try PassSelfCheck.require(pass, name: out, trust: trust)
            // Made before the file is written: a pass whose Google link cannot be made is not issued at all.
            let googleLink = try google.map { google throws(CLIError) in try makeGoogleLink(google, issuer, pass) }
            try PassOutput.write(pass.archiveParts, to: out)
            if let googleLink, let path = google?.jsonPath {
                try PassOutput.write(JSONWriter.serialize(googleLink.pass.storedJSON), to: path)
            }
            print(
                "wrote \(out): \(pass.passTypeIdentifier) serial \(pass.serialNumber), \(pass.archiveParts.count) bytes"
            )
            if let googleLink {
                print("google: \(googleLink.link.url)")
                if googleLink.link.content != .classAndObject {
                    Console.error(
                        "note: the Google link carries the object only; its class \(googleLink.pass.classID) is at Google"
                    )
                }
            }
            let companions = googleLink.map { [GoogleCompanion.storedName: $0.pass.storedJSON] } ?? [:]
            // Stored only once the file exists, so the service never knows a pass its holder was not given.
            guard let issuance else { return 0 }
            if let previous {
                if previous.isUnchanged(record: pass.record, images: pass.images, webServiceURL: webServiceURL) {
                    print(
                        "unchanged \(pass.serialNumber): the stored pass already has these values; nothing stored or pushed"
                    )
                    return 0
                }
                try issuance.sink.storeIssued(
                    pass, templateDirectory: templateDir, token: token, webServiceURL: webServiceURL,
                    replacing: previous, companions: companions)
                let link =
                    previous.voided
                    ? "the pass stays voided, so its distribution link answers 410"
                    : "its distribution link still works"
                print(
                    "updated \(pass.serialNumber): a new version with the stored token; its registered devices are "
                        + "pushed, \(link)")
                return 0
            }
            let link = try issuance.sink.storeIssued(
                pass, templateDirectory: templateDir, token: token, webServiceURL: webServiceURL,
                linkBase: linkBase, companions: companions)
            if let link {
                print("link: \(link.url)")
            } else {
                Console.error(
                    "note: no distribution link: the pass has no web service URL; give --web-service-url or --link-base"
                )
            }
            return 0
        } catch {
            throw CLIError(error)
        }
    }

    /// The pass's Google class and object and its save link.
    private func makeGoogleLink(_ google: GoogleArguments, _ issuer: PassIssuer, _ pass: IssuedPass) throws(CLIError)
        -> (pass: GooglePass, link: GoogleSaveLink)
    {
        let (links, warnings) = try google.links(for: issuer.template)
        for warning in warnings { Console.error("warning: \(warning)") }
        let typed: Pass
        do { typed = try pass.typedPass() } catch { throw CLIError(error) }
        do {
            return try links.link(
                for: GoogleMappingInput(
                    passJSON: pass.passJSON, files: pass.files, record: pass.record, pass: typed),
                issuedAt: Int64(Date().timeIntervalSince1970))
        } catch {
            throw error.cli()
        }
    }
}
