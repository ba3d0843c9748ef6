import Foundation
import PassMint
import PassPhotos
import PassSigning
import PassStore
import PassOperations

/// `passmint generate`: one signed pass from a template.
struct GenerateCommand: Command {
    static let spec = CommandSpec(
        name: "generate",
        abstract: "make one signed .pkpass from a template",
        usage:
            "generate --template DIR [--set key=value]… [--data FILE.json] [--images DIR] [--serial S] [--compatible] [--db FILE | --postgres URL] [--template-name NAME] --out FILE.pkpass",
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
            """,
        options: [
            .value("template", "DIR", "template folder, .pkpasstemplate folder, or zipped .pkpasstemplate / .zip"),
            .value("set", "KEY=VALUE", "value of a template field, pass field key or reserved key", repeatable: true),
            .value("data", "FILE", "JSON object of field values"),
            .value("images", "DIR", "folder that image paths start at and must stay inside"),
            .value("serial", "S", "serial number (default: the record's serialNumber or a new UUID)"),
            .value("out", "FILE", "where to write the .pkpass"),
            .flag("compatible", "derive a generic fallback from posterGeneric for iOS 26 and earlier"),
            .value("web-service-url", "URL", "update service base URL written into the pass (needs --db)"),
            LinkArguments.option,
            TemplateNameArgument.option,
            TrustArguments.option,
        ] + StoreArguments.options(dbHelp: "store the pass in this SQLite database so `passmint serve` can update it")
            + IdentityArguments.options,
        examples: [
            "passmint generate --template Templates/loyalty --out loyalty.pkpass",
            "passmint generate --template Templates/status --set memberName='Ada Lovelace' --set tier=Gold --out ada.pkpass",
            "passmint generate --template Templates/designer-club.pkpasstemplate --set MEMBER_NAME='Ada Lovelace' --out ada.pkpass",
            "passmint generate --template Templates/status --set image.thumbnail=photos/ada.jpg --out ada.pkpass",
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
    /// Record keys whose values came from --data (their image paths start at the data file's folder).
    let imageFolders: [String: String]

    init(_ args: ParsedArguments) throws(CLIError) {
        templateDir = try args.required("template", of: Self.spec)
        out = try args.required("out", of: Self.spec)
        serial = args.value("serial")
        identity = IdentityArguments.make(args)
        // PASSMINT_DATABASE_URL names the service's store: only a pass bound to the service goes there.
        store = try StoreArguments.location(
            args, of: Self.spec,
            environment: args.value("web-service-url") == nil ? [:] : ProcessInfo.processInfo.environment)
        webServiceURL = args.value("web-service-url")
        trust = try TrustArguments.load(args)
        compatible = args.flag("compatible")
        if webServiceURL != nil, store == nil {
            throw .usage("--web-service-url needs --db FILE or --postgres URL so `passmint serve` can find the pass")
        }
        linkBase = try LinkArguments.base(args)
        if linkBase != nil, store == nil {
            throw .usage("--link-base needs --db FILE or --postgres URL: a link opens a stored pass")
        }
        imageFolder = args.value("images")
        templateName = try TemplateNameArgument.value(args, store: store)
        var record: [String: String] = [:]
        var fromData: [String] = []
        var dataFolder = "."
        if let data = args.value("data") {
            do { record = try RecordFile.load(path: data) } catch { throw error.cli }
            fromData = Array(record.keys)
            let folder = (data as NSString).deletingLastPathComponent
            dataFolder = folder.isEmpty ? "." : folder
        }
        let set = try args.keyValues("set", of: Self.spec)
        record.merge(set) { _, new in new }
        self.record = record
        var folders: [String: String] = [:]
        if imageFolder == nil {
            for key in fromData where set[key] == nil { folders[key] = dataFolder }
        }
        imageFolders = folders
    }

    func run() throws(CLIError) -> Int32 {
        do {
            // The template's version is stored before the pass, which then names it instead of the folder.
            let issuance = try store.map { store throws(PassMintError) in
                try TemplateIssuance.prepare(store: store, templatePath: templateDir, name: templateName)
            }
            for warning in issuance?.warnings ?? [] { Console.error("warning: \(warning)") }
            let issuer = try PassFactory.issuer(
                templateDirectory: templateDir, identity: identity, trust: trust, photos: PhotoScaler())
            let token = webServiceURL.map { _ in AuthenticationToken.generate() }
            let pass = try issuer.issue(
                IssueRequest(
                    record: record, serialNumber: serial, webServiceURL: webServiceURL, authenticationToken: token,
                    compatiblePass: compatible, rejectsUnknownKeys: true, imageFolder: imageFolder,
                    imageFolders: imageFolders))
            for warning in issuer.identityWarnings + issuer.templateWarnings + pass.warnings {
                Console.error("warning: \(warning)")
            }
            try PassSelfCheck.require(pass, name: out, trust: trust)
            try PassOutput.write(pass.archiveParts, to: out)
            // Stored only once the file exists, so the service never knows a pass its holder was not given.
            var link: PassLink?
            if let issuance {
                link = try issuance.sink.storeIssued(
                    pass, templateDirectory: templateDir, token: token, webServiceURL: webServiceURL,
                    linkBase: linkBase)
            }
            print(
                "wrote \(out): \(pass.passTypeIdentifier) serial \(pass.serialNumber), \(pass.archiveParts.count) bytes"
            )
            if let link {
                print("link: \(link.url)")
            } else if store != nil {
                Console.error(
                    "note: no distribution link: the pass has no web service URL; give --web-service-url or --link-base"
                )
            }
            return 0
        } catch {
            throw error.cli
        }
    }
}
