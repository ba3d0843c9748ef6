import PassMint
import PassStore

/// What `passmint templates list` shows: each published name with its pass counts, and the folder paths older
/// passes still name.
package struct TemplateListing: Sendable {
    /// One published name.
    package struct Row: Sendable, Equatable {
        /// The name and its current version.
        package let template: PublishedTemplate
        /// Passes on the current version.
        package let currentPasses: Int
        /// Passes on any version of the name.
        package let passes: Int
    }

    /// Sorted by name.
    package let rows: [Row]
    /// Stored template values that are folder paths (passes of an older PassMint).
    package let unversioned: [TemplateUsage]

    /// Reads the listing from `store`.
    /// - Throws: `OperationError.store` when the store cannot be read.
    package static func read(_ store: any TemplateVersionStore) throws(OperationError) -> TemplateListing {
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
            throw .store(.readingStoredTemplates, underlying: error)
        }
    }
}
