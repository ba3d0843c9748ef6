import Foundation
import PassStore

/// A pass's versions with the record of each (rebuilt backwards from the stored record and what each version
/// changed) and, when the template renders them, the pass fields each version moved.
struct VersionHistory {
    let versions: [PassVersionRecord]
    let records: [Int64: [String: String]]
    let fields: [Int64: [String: TraceFields.Field]]
    let views: [PassTrace.Version]

    init(pass: StoredPass, versions stored: [PassVersionRecord], templates: (any TemplateVersionStore)?) {
        // A store migrated from before versions were kept may hold none: the pass as it is, then.
        let versions =
            stored.isEmpty
            ? [
                PassVersionRecord(
                    tag: pass.tag, modifiedAtSeconds: Int64(pass.modifiedAt.timeIntervalSince1970), voided: pass.voided,
                    changed: [:])
            ] : stored
        var records: [Int64: [String: String]] = [:]
        var record = pass.record
        for version in versions.reversed() {
            records[version.tag] = record
            for (key, change) in version.changed { record[key] = change.before }
        }
        var fields: [Int64: [String: TraceFields.Field]] = [:]
        if let renderer = TraceFields(pass: pass, templates: templates) {
            for version in versions {
                if let rendered = renderer.fields(records[version.tag] ?? [:], voided: version.voided) {
                    fields[version.tag] = rendered
                }
            }
        }
        var views: [PassTrace.Version] = []
        for (index, version) in versions.enumerated() {
            let previous = index > 0 ? versions[index - 1] : nil
            var changedFields: [PassTrace.FieldChange]? = nil
            if let previous, let old = fields[previous.tag], let new = fields[version.tag] {
                changedFields = TraceFields.changes(from: old, to: new)
            } else if previous == nil, fields[version.tag] != nil {
                changedFields = []
            }
            views.append(
                PassTrace.Version(
                    tag: String(version.tag),
                    lastModified: Date(timeIntervalSince1970: TimeInterval(version.modifiedAtSeconds)),
                    voided: version.voided,
                    changedRecord: version.changed.keys.sorted().map {
                        PassTrace.RecordChange(
                            key: $0, from: version.changed[$0]?.before, to: version.changed[$0]?.after)
                    }, changedFields: changedFields))
        }
        self.versions = versions
        self.records = records
        self.fields = fields
        self.views = views
    }

    var current: PassVersionRecord { versions[versions.count - 1] }

    func version(tag: Int64) -> PassVersionRecord? { versions.last { $0.tag == tag } }

    /// The newest version whose `Last-Modified` is at or before `seconds` (what a phone sending that
    /// `If-Modified-Since` holds).
    func version(modifiedAtOrBefore seconds: Int64) -> PassVersionRecord? {
        versions.last { $0.modifiedAtSeconds <= seconds }
    }

    /// The fields that changed from version `from` to version `to`; nil when either did not render.
    func fieldChanges(from: Int64, to: Int64) -> [PassTrace.FieldChange]? {
        guard let old = fields[from], let new = fields[to] else { return nil }
        return TraceFields.changes(from: old, to: new)
    }
}
