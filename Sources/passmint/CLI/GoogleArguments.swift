import Foundation
import PassGoogle
import PassMint
import PassTemplates

/// `--google` and its options, shared by generate and batch: the service account, the issuer, where images are
/// published, the origins of the save button, and whether the template's classes are already at Google.
struct GoogleArguments {
    static let google = Flag("google", "also make a Save to Google Wallet link for each pass")
    static let key = Option<String>(
        "google-key", "FILE", "service-account JSON key (default: $GOOGLE_APPLICATION_CREDENTIALS)")
    static let issuer = Option<String>(
        "google-issuer", "ID", "Google Wallet issuer ID (default: $PASSMINT_GOOGLE_ISSUER_ID)")
    static let imageBaseOption = Option<String>(
        "google-image-base", "URL",
        "public base URL `serve` publishes images under (default: --link-base, else --web-service-url)")
    static let origin = RepeatedOption(
        "google-origin", "URL", "web origin allowed to show the save button (repeatable)")
    static let json = Option<String>(
        "google-json", "FILE", "also write the pass's Google class and object to FILE (generate)")
    static let classPublished = Flag(
        "google-class-published", "the template's Google classes are already at Google: links carry the object only")
    /// `lint --google`.
    static let lintFlag = Flag("google", "also list what Google Wallet could not show (google.* rows)")

    static let options: [any OptionDeclaration] = [google, key, issuer, imageBaseOption, origin, json, classPublished]

    let keyPath: String?
    let issuerID: String?
    let imageBase: String?
    let origins: [String]
    let classesPublished: Bool
    /// Where generate writes the class and object (`GooglePass.storedJSON`).
    let jsonPath: String?

    /// nil when `--google` is not given; a Google option without it is a usage error.
    init?(_ args: ParsedArguments, linkBase: String?, webServiceURL: String?) throws(CLIError) {
        guard args[Self.google] else {
            if let option = Self.options.first(where: { $0.spec.long != Self.google.spec.long && args.given($0) }) {
                throw .usage("--\(option.spec.long) needs --google")
            }
            return nil
        }
        keyPath = args[Self.key]
        issuerID = args[Self.issuer]
        imageBase = args[Self.imageBaseOption] ?? linkBase ?? webServiceURL
        origins = args[Self.origin]
        classesPublished = args[Self.classPublished]
        jsonPath = args[Self.json]
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
