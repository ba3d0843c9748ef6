import PassMint
import PassStore

/// What `passmint templates list` shows: each published name with its pass counts, and the folder paths older
/// passes still name.
public struct TemplateListing: Sendable {
    /// One published name.
    public struct Row: Sendable, Equatable {
        /// The name and its current version.
        public let template: PublishedTemplate
        /// Passes on the current version.
        public let currentPasses: Int
        /// Passes on any version of the name.
        public let passes: Int
    }

    /// Sorted by name.
    public let rows: [Row]
    /// Stored template values that are folder paths (passes of an older PassMint).
    public let unversioned: [TemplateUsage]

    /// Reads the listing from `store`.
    /// - Throws: `PassMintError.environment` when the store cannot be read.
    public static func read(_ store: any TemplateVersionStore) throws(PassMintError) -> TemplateListing {
        do {
            let usage = try store.templateUsage()
            let rows = try store.publishedTemplates().map { template in
                var current = 0
                var all = 0
                for entry in usage {
                    guard let reference = TemplateReference(entry.template), reference.name == template.name else {
                        continue
                    }
                    all += entry.passes
                    if reference.digest == template.digest { current += entry.passes }
                }
                return Row(template: template, currentPasses: current, passes: all)
            }
            return TemplateListing(
                rows: rows,
                unversioned: usage.filter { !$0.template.hasPrefix(TemplateReference.prefix) })
        } catch {
            throw .environment("reading the stored templates: \(error)", about: .store)
        }
    }
}
