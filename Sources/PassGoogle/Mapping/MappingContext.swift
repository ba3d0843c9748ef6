import PassModel
import PassTemplates

/// One pass being mapped: the Apple pass, its displayed style's fields, its images and translations, and the
/// class and object being built. Builders take fields out (`take`) for Google's own slots; what is left becomes
/// text modules.
struct MappingContext {
    let pass: Pass
    /// The style whose fields are mapped: the one iOS 27 shows (`posterGeneric` when present).
    let style: PassStyle
    let structure: PassStructure
    let text: LocalizedText
    let images: PassImageSet
    /// True when the pass.json value at a path is the template's own (no placeholder, no personalization): it is
    /// the same for every pass, so it belongs to the class.
    let isStatic: (_ path: String, _ value: JSONValue?) -> Bool
    let kind: GoogleKind

    var klass: [String: JSONValue] = [:]
    var object: [String: JSONValue] = [:]
    var gaps: [GoogleGap] = []
    /// Paths of fields already given a Google slot.
    private(set) var taken: Set<String> = []

    init(
        pass: Pass, passJSON: JSONValue, style: PassStyle, text: LocalizedText, images: PassImageSet, kind: GoogleKind,
        isStatic: @escaping (_ path: String, _ value: JSONValue?) -> Bool
    ) {
        self.pass = pass
        self.passJSON = passJSON
        self.fields = pass.fields.filter { $0.style == style }
        self.style = style
        self.structure = pass[style] ?? PassStructure()
        self.text = text
        self.images = images
        self.kind = kind
        self.isStatic = isStatic
    }

    /// The displayed style's fields in display order, with their paths.
    let fields: [LocatedField]
    /// The pass.json as issued.
    let passJSON: JSONValue

    /// The fields no slot has taken yet.
    var remaining: [LocatedField] { fields.filter { !taken.contains($0.path) } }

    /// The first field not yet taken whose key (lower-cased, without `_`, `-`, `.` and spaces) is one of `keys`,
    /// in the order of `keys`; it is marked taken.
    mutating func take(keys: [String], where accept: (LocatedField) -> Bool = { _ in true }) -> LocatedField? {
        let candidates = remaining
        for key in keys {
            if let found = candidates.first(where: { Self.normalized($0.field.key) == key && accept($0) }) {
                taken.insert(found.path)
                return found
            }
        }
        return nil
    }

    /// The first field not yet taken that `accept`s, in display order, marked taken.
    mutating func takeFirst(in groups: [PassFieldGroup]? = nil, where accept: (LocatedField) -> Bool) -> LocatedField? {
        let found = remaining.first { (groups?.contains($0.group) ?? true) && accept($0) }
        if let found { taken.insert(found.path) }
        return found
    }

    /// Marks a field as mapped elsewhere.
    mutating func markTaken(_ field: LocatedField) { taken.insert(field.path) }

    static func normalized(_ key: String?) -> String {
        String((key ?? "").lowercased().filter { $0 != "_" && $0 != "-" && $0 != "." && $0 != " " })
    }

    /// The field's value as text (formatted dates and numbers).
    func valueText(_ field: PassField) -> String { FieldText.format(field, language: nil) }

    /// A LocalizedString of the field's value: strings translated by lookup, dates and numbers formatted per
    /// language.
    func localizedValue(_ field: PassField) -> JSONValue {
        let shown = valueText(field)
        if case .string(let s)? = field.value, field.dateStyle == nil, field.timeStyle == nil {
            return text.localized(s)
        }
        return text.localized(shown) { FieldText.format(field, language: $0) }
    }

    /// The `localized…` twin of the field's value as text, nil when no language shows it differently.
    func localizedTwin(_ field: PassField) -> JSONValue? {
        if case .string(let s)? = field.value, field.dateStyle == nil, field.timeStyle == nil { return text.twin(s) }
        return text.twin(valueText(field)) { FieldText.format(field, language: $0) }
    }

    /// The class when the value at `path` is the template's own, else the object.
    func level(of path: String) -> Level { isStatic(path, nil) ? .class : .object }

    /// The class when the field is the template's own (a field personalized by key counts as the template's on
    /// the back of the pass while its value is the template's), else the object.
    func level(of field: LocatedField) -> Level {
        let back = field.group == .backFields || field.group == .additionalInfoFields
        return isStatic(field.path, back ? field.field.value?.jsonValue ?? .null : nil) ? .class : .object
    }

    enum Level { case `class`, object }

    /// Sets `value` on the class or the object.
    mutating func set(_ key: String, _ value: JSONValue?, on level: Level) {
        guard let value else { return }
        switch level {
        case .class: klass[key] = value
        case .object: object[key] = value
        }
    }

    /// Records that `path` has no place on Google's pass.
    mutating func gap(_ path: String, _ reason: GoogleGap.Reason) {
        gaps.append(GoogleGap(path: path, reason: reason))
    }
}
