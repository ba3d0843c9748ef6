import Foundation
import PassGoogle
import PassMint
import PassTemplates

/// `--google` and its options, shared by generate and batch: the service account, the issuer, where images are
/// published, the origins of the save button, and whether the template's classes are already at Google.
struct GoogleArguments {
    static let options: [OptionSpec] = [
        .flag("google", "also make a Save to Google Wallet link for each pass"),
        .value("google-key", "FILE", "service-account JSON key (default: $GOOGLE_APPLICATION_CREDENTIALS)"),
        .value("google-issuer", "ID", "Google Wallet issuer ID (default: $PASSMINT_GOOGLE_ISSUER_ID)"),
        .value(
            "google-image-base", "URL",
            "public base URL `serve` publishes images under (default: --link-base, else --web-service-url)"),
        .value("google-origin", "URL", "web origin allowed to show the save button (repeatable)", repeatable: true),
        .value("google-json", "FILE", "also write the pass's Google class and object to FILE (generate)"),
        .flag(
            "google-class-published",
            "the template's Google classes are already at Google: links carry the object only"),
    ]

    let keyPath: String?
    let issuerID: String?
    let imageBase: String?
    let origins: [String]
    let classesPublished: Bool
    /// Where generate writes the class and object (`GooglePass.storedJSON`).
    let jsonPath: String?

    /// nil when `--google` is not given; a Google option without it is a usage error.
    init?(_ args: ParsedArguments, linkBase: String?, webServiceURL: String?) throws(CLIError) {
        guard args.flag("google") else {
            for option in Self.options.map(\.long) where option != "google" {
                if args.value(option) != nil || (option == "google-class-published" && args.flag(option)) {
                    throw .usage("--\(option) needs --google")
                }
            }
            return nil
        }
        keyPath = args.value("google-key")
        issuerID = args.value("google-issuer")
        imageBase = args.value("google-image-base") ?? linkBase ?? webServiceURL
        origins = args.all("google-origin")
        classesPublished = args.flag("google-class-published")
        jsonPath = args.value("google-json")
        if let imageBase, !imageBase.hasPrefix("https://"), !imageBase.hasPrefix("http://") {
            throw .usage(
                "--google-image-base needs an absolute URL such as https://passes.example.com; got '\(imageBase)'")
        }
    }

    /// The identity and the save-link maker for `template`.
    func links(for template: Template) throws(CLIError) -> (links: GoogleSaveLinks, warnings: [String]) {
        let identity: GoogleIdentity
        do { identity = try GoogleIdentity.load(keyPath: keyPath, issuerID: issuerID) } catch {
            throw error.cli(option: keyPath == nil ? nil : "--google-key")
        }
        let mapping = GoogleMapping(template: template, issuerID: identity.issuerID, imageBase: imageBase)
        let links = GoogleSaveLinks(
            mapping: mapping, identity: identity, origins: origins, inserter: nil, classesAtGoogle: classesPublished)
        return (links, identity.warnings)
    }
}

extension GoogleError {
    /// Invalid input exits 1, an unreadable key file 3; a link that needs the network says how to get one offline.
    func cli(option: String? = nil) -> CLIError {
        var text = description
        if case .linkNeedsInsert(_, _, let resource) = self, resource == .class {
            text +=
                "; publish the template's class first (`passmint templates publish` with Google configured) and "
                + "rerun with --google-class-published"
        }
        if case .noImageBase = self {
            text += " (--google-image-base, --link-base or --web-service-url)"
        }
        if let option { text = "\(option): " + text }
        return isInvalidInput ? .invalid(text) : .environment(text)
    }
}

extension PassMintError {
    /// A companion's Google error gets the Google wording; anything else as usual.
    var cliWithGoogle: CLIError {
        if case .companion(let failure) = self, let google = failure as? GoogleError { return google.cli() }
        return cli
    }
}
