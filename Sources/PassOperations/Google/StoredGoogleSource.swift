import PassGoogle
import PassMint
import PassModel
import PassStore
import PassTemplates
import Synchronization

/// What the Google worker sends, rendered from the store through the same `TemplateRenderer` as pass
/// downloads: a pass's class and object, what Apple would announce of its change since Google's last version,
/// and the classes of a published template. One `GoogleMapping` per template version and image base, reused.
package final class StoredGoogleSource: GoogleResourceSource {
    private let renderer: TemplateRenderer
    private let store: any ServiceStore
    private let issuerID: String
    /// Where `serve` publishes images (its link base); nil: each pass's web service URL.
    private let imageBase: String?
    private let mappings = Mutex<[String: GoogleMapping]>([:])

    package init(renderer: TemplateRenderer, store: any ServiceStore, issuerID: String, imageBase: String?) {
        self.renderer = renderer
        self.store = store
        self.issuerID = issuerID
        self.imageBase = imageBase
    }

    package func object(for pass: StoredPass, delivered: [String: String]?) throws(GoogleSourceError)
        -> GoogleObjectUpdate
    {
        let serial = pass.serialNumber
        let issuer: PassIssuer
        let now: UnsignedPass
        do {
            issuer = try renderer.issuer(for: pass.templatePath)
            now = try renderer.unsigned(pass, with: issuer)
        } catch {
            throw .render(serial: serial, underlying: error)
        }
        let mapping = self.mapping(issuer.template, key: pass.templatePath, base: imageBase ?? pass.webServiceURL)
        let google: GooglePass
        do {
            google = try mapping.map(GoogleMappingInput(passJSON: now.passJSON, files: now.files, record: now.record))
        } catch {
            throw .mapping(serial: serial, error)
        }
        var announcement: GoogleAnnouncement?
        if let delivered, delivered != pass.record {
            var before = pass
            before.record = delivered
            // A record the template no longer takes announces nothing rather than failing the update.
            let old = try? renderer.unsigned(before, with: issuer)
            announcement = GoogleAnnouncement.between(old: old?.passJSON, new: now.passJSON)
        }
        return GoogleObjectUpdate(pass: google, announcement: announcement)
    }

    package func classes(template name: String) throws(GoogleSourceError) -> [GooglePass] {
        let reference: TemplateReference
        var base = imageBase
        do {
            guard let published = try store.currentTemplate(name: name) else {
                throw GoogleSourceError.noTemplate(name: name)
            }
            reference = try TemplateReference(name: name, digest: published.digest)
            if base == nil {
                base = try store.passes(after: nil, limit: 1, templatePath: reference.description).first?.webServiceURL
            }
        } catch let error as GoogleSourceError {
            throw error
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .noTemplate(name: name)  // not reached: the store throws StoreError only
        }
        guard let base else { throw .noImageBaseYet(name: name) }
        let issuer: PassIssuer
        do { issuer = try renderer.issuer(for: reference.description) } catch {
            throw .templateRender(name: name, underlying: error)
        }
        let template = issuer.template
        let mapping = self.mapping(template, key: reference.description, base: base)
        // One pass per tier value (tiers may change class fields), each with the template's defaults.
        let records: [[String: String]] =
            template.tierField.map { field in template.tiers.keys.sorted().map { [field: $0] } } ?? [[:]]
        var classes: [String: GooglePass] = [:]
        for record in records.isEmpty ? [[:]] : records {
            let made: UnsignedPass
            do {
                made = try issuer.unsigned(IssueRequest(record: record, serialNumber: "passmint-class"))
            } catch {
                throw .templateRender(name: name, underlying: error)
            }
            let google: GooglePass
            do {
                google = try mapping.map(
                    GoogleMappingInput(passJSON: made.passJSON, files: made.files, record: made.record))
            } catch {
                throw .templateMapping(name: name, error)
            }
            classes[google.classID] = google
        }
        return classes.keys.sorted().compactMap { classes[$0] }
    }

    private func mapping(_ template: Template, key: String, base: String?) -> GoogleMapping {
        let cacheKey = key + "\u{0}" + (base ?? "")
        if let cached = mappings.withLock({ $0[cacheKey] }) { return cached }
        let made = GoogleMapping(template: template, issuerID: issuerID, imageBase: base)
        mappings.withLock { $0[cacheKey] = made }
        return made
    }
}
