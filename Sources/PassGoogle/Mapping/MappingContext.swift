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

    /// False when the class is known already (`GoogleMapping`'s class memo): builders may skip what only the
    /// class needs; whatever they put in `klass` is not used.
    var buildsClass = true
    var klass: [String: JSONValue] = [:]
    var object: [String: JSONValue] = [:]
    var gaps: [GoogleGap] = []
    /// By index in `fields`: the field has a Google slot already.
    private var taken: [Bool]
    /// By index in `fields`: a class slot took the field and the object shows it too, as a text module: what is
    /// the member's own (their tier) belongs in their object even when the class carries it for its colours.
    private var alsoOnObject: [Bool]
    /// By index in `fields`: the field's key as `take(keys:)` compares it.
    private let normalizedKeys: [String]

    init(
        pass: Pass, passJSON: JSONValue, style: PassStyle, text: LocalizedText, images: PassImageSet, kind: GoogleKind,
        isStatic: @escaping (_ path: String, _ value: JSONValue?) -> Bool
    ) {
        self.pass = pass
        self.passJSON = passJSON
        let fields = FieldPaths.fields(of: pass, style: style)
        self.fields = fields
        self.normalizedKeys = fields.map { Self.normalized($0.field.key) }
        self.taken = Array(repeating: false, count: fields.count)
        self.alsoOnObject = taken
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
    var remaining: [LocatedField] { fields.indices.filter { !taken[$0] }.map { fields[$0] } }

    /// The fields that become text modules: the ones no slot took, and the ones a class slot took that the object
    /// shows too (`onObject`).
    var moduleFields: [(field: LocatedField, onObject: Bool)] {
        fields.indices.filter { !taken[$0] || alsoOnObject[$0] }.map { (fields[$0], alsoOnObject[$0]) }
    }

    /// The first field not yet taken whose key (lower-cased, without `_`, `-`, `.` and spaces) is one of `keys`,
    /// in the order of `keys`; it is marked taken.
    mutating func take(keys: [String], where accept: (LocatedField) -> Bool = { _ in true }) -> LocatedField? {
        for key in keys {
            for index in fields.indices where !taken[index] && normalizedKeys[index] == key && accept(fields[index]) {
                taken[index] = true
                return fields[index]
            }
        }
        return nil
    }

    /// The first field not yet taken that `accept`s, in display order, marked taken; with `onClass`, only a field
    /// that is the class's (`level(of:)`).
    mutating func takeFirst(
        in groups: [PassFieldGroup]? = nil, onClass: Bool = false, where accept: (LocatedField) -> Bool
    ) -> LocatedField? {
        for index in fields.indices where !taken[index] {
            let field = fields[index]
            if groups?.contains(field.group) ?? true, !onClass || level(of: field) == .class, accept(field) {
                taken[index] = true
                return field
            }
        }
        return nil
    }

    /// The fields `showOnObject` was given, in display order.
    var shownOnObject: [LocatedField] { fields.indices.filter { alsoOnObject[$0] }.map { fields[$0] } }

    /// Makes a field a class slot took a text module of the object too.
    mutating func showOnObject(_ field: LocatedField) {
        if let index = fields.firstIndex(where: { $0.path == field.path }) { alsoOnObject[index] = true }
    }

    static func normalized(_ key: String?) -> String {
        guard let key else { return "" }
        // Keys are ASCII as a rule: lower-cased and filtered byte by byte, without Unicode case mapping.
        if key.utf8.allSatisfy({ $0 < 0x80 }) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(key.utf8.count)
            for byte in key.utf8 where byte != 0x5F && byte != 0x2D && byte != 0x2E && byte != 0x20 {
                bytes.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        return String(key.lowercased().filter { $0 != "_" && $0 != "-" && $0 != "." && $0 != " " })
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

/// The JSON paths of pass fields (`storeCard.primaryFields[0]`), made once: every member's pass has the same ones.
enum FieldPaths {
    /// Fields per group kept in the table; a longer group's paths are made when asked.
    private static let tableDepth = 32
    private static let table: [PassStyle: [PassFieldGroup: [String]]] = {
        var out: [PassStyle: [PassFieldGroup: [String]]] = [:]
        for style in PassStyle.allCases {
            var groups: [PassFieldGroup: [String]] = [:]
            for group in PassFieldGroup.allCases {
                let base = JSONPath.member(style.rawValue, group.rawValue)
                groups[group] = (0..<tableDepth).map { JSONPath.index(base, $0) }
            }
            out[style] = groups
        }
        return out
    }()

    static func path(_ style: PassStyle, _ group: PassFieldGroup, _ index: Int) -> String {
        if index < tableDepth, let made = table[style]?[group]?[index] { return made }
        return JSONPath.index(JSONPath.member(style.rawValue, group.rawValue), index)
    }

    /// `style`'s fields in display order (as `Pass.fields` lists them), with their paths.
    static func fields(of pass: Pass, style: PassStyle) -> [LocatedField] {
        guard let structure = pass[style] else { return [] }
        var out: [LocatedField] = []
        for group in PassFieldGroup.allCases {
            for (index, field) in (structure[group] ?? []).enumerated() {
                out.append(
                    LocatedField(
                        style: style, group: group, index: index, field: field, path: path(style, group, index)))
            }
        }
        return out
    }
}
