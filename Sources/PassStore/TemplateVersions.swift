import Foundation

/// One immutable version of a template: its files, named by the SHA-256 of their canonical listing.
///
/// Why content-addressed: a stored pass that names its template by a folder on disk changes what the service
/// renders whenever someone edits that folder, without a new tag, so phones never hear of it. A pass that names
/// a digest renders the same bytes forever; only publishing a new version (which bumps the tags) changes it.
package struct TemplateVersion: Sendable, Equatable {
    /// Lowercase hex SHA-256 of `TemplateDigest.canonicalListing(files)`.
    package let digest: String
    /// Relative `/`-separated path → bytes.
    package let files: [String: [UInt8]]
    /// Loaded as a Pass Designer template (a `.pkpasstemplate` folder name is not part of the files).
    package let designer: Bool

    /// A version of `files`, its digest computed here.
    package init(files: [String: [UInt8]], designer: Bool = false) {
        self.files = files
        self.designer = designer
        self.digest = TemplateDigest.digest(files)
    }

    /// A version read back from a store (the digest was computed when it was stored).
    init(storedDigest: String, files: [String: [UInt8]], designer: Bool) {
        self.digest = storedDigest
        self.files = files
        self.designer = designer
    }

    /// The first 12 hex digits, for listings.
    package var shortDigest: String { String(digest.prefix(12)) }

    /// All bytes of all files.
    package var totalBytes: Int { files.values.reduce(0) { $0 + $1.count } }
}

/// A template name and the version that is current for it.
package struct PublishedTemplate: Sendable, Equatable {
    package var name: String
    /// The current version's digest.
    package var digest: String
    /// When this version was made current, in whole seconds.
    package var publishedAt: Date

    package init(name: String, digest: String, publishedAt: Date) {
        self.name = name
        self.digest = digest
        self.publishedAt = publishedAt
    }
}

/// How many stored passes name one `template` value, and how many device registrations they have.
package struct TemplateUsage: Sendable, Equatable {
    /// The stored `template` column: a `TemplateReference` text or (older PassMint) a folder path.
    package var template: String
    /// Stored passes with this value.
    package var passes: Int
    /// Device registrations of those passes.
    package var registrations: Int

    package init(template: String, passes: Int, registrations: Int) {
        self.template = template
        self.passes = passes
        self.registrations = registrations
    }
}

/// Template versions and the current version of each template name (both stores implement it).
package protocol TemplateVersionStore: Sendable {
    /// Stores `version` unless a version with its digest is stored already (the same content is stored once).
    /// - Returns: true when the version was new.
    func storeTemplateVersion(_ version: TemplateVersion) throws -> Bool
    /// The stored version with this digest, nil when none is stored.
    func templateVersion(digest: String) throws -> TemplateVersion?
    /// The current version of `name`, nil when the name was never published.
    func currentTemplate(name: String) throws -> PublishedTemplate?
    /// Makes the stored version `digest` current for `name`.
    /// - Parameter onlyIfUnpublished: leave a name that already has a current version as it is (issuing passes
    ///   from a template publishes it only the first time).
    /// - Returns: true when `name`'s current version was set.
    @discardableResult
    func publishTemplate(name: String, digest: String, onlyIfUnpublished: Bool) throws -> Bool
    /// Every published template name, sorted by name.
    func publishedTemplates() throws -> [PublishedTemplate]
    /// Per distinct `template` value of the stored passes: how many passes and device registrations.
    func templateUsage() throws -> [TemplateUsage]
}
