import PassModel

/// Personalization by pass field key, as Apple's pass builder does it for Pass Designer templates: a record key
/// equal to a pass field's `key` replaces that field's `value` in every style dictionary (`posterGeneric` and its
/// fallback alike) and every field group, keeping the field's other attributes. A key that matches nothing
/// changes nothing.
///
/// Field keys and template fields share one namespace:
/// - A key that template.json (or a placeholder) already declares as a field is personalized by that field:
///   template.json's type, default and `required` apply, and the value fills both `{{name}}` and every pass
///   field with that key.
/// - Any other key becomes an implicit optional field, typed from the template's values: `integer` when every
///   value with that key is a JSON integer, `decimal` when every value is a number, `date` when every value is
///   an ISO 8601 date string in a field with `dateStyle` or `timeStyle`, else `string`. Its default is the
///   template's value when every field with that key has the same one (so a `{{KEY}}` placeholder elsewhere
///   shows it too); when they differ there is no default and each field keeps its own value unless the record
///   gives one.
/// - Without template.json, a placeholder named like a key is that key's implicit field (optional, typed and
///   defaulted as above), not a required string field.
/// - A key equal to a reserved record key (`serialNumber`, `barcode.message`, …, `image.SLOT`) cannot be a
///   field; it is left alone with a warning.
enum KeyFields {
    /// One pass field found by `occurrences(in:)`.
    struct Occurrence {
        let key: String
        let value: JSONValue?
        let isDate: Bool
    }

    /// The implicit fields of `passJSON`'s keys not in `declared`, and the names of every field personalized by key.
    static func scan(
        _ passJSON: JSONValue, declared: [TemplateField], file: String, warnings: inout [String]
    ) -> (implicit: [TemplateField], names: Set<String>) {
        var order: [String] = []
        var byKey: [String: [Occurrence]] = [:]
        for occurrence in occurrences(in: passJSON) {
            if byKey[occurrence.key] == nil { order.append(occurrence.key) }
            byKey[occurrence.key, default: []].append(occurrence)
        }
        let declaredNames = Set(declared.map(\.name))
        var implicit: [TemplateField] = []
        var names: Set<String> = []
        for key in order {
            if Template.isReservedKey(key) {
                warnings.append(
                    "\(file): pass field key \"\(key)\" is a reserved record key, so it cannot be "
                        + "personalized by key; rename the field's key (or use {{placeholders}} in its value)")
                continue
            }
            names.insert(key)
            guard !declaredNames.contains(key) else { continue }
            var field = TemplateField(
                name: key, kind: kind(of: byKey[key]!), required: false,
                description: "the value of every pass field with key \"\(key)\"")
            field.defaultValue = defaultValue(of: byKey[key]!, for: field)
            implicit.append(field)
        }
        return (implicit, names)
    }

    /// Every field dictionary with a string `key`, in style order (`PassStyle.allCases`), then group order.
    static func occurrences(in passJSON: JSONValue) -> [Occurrence] {
        var out: [Occurrence] = []
        for style in PassStyle.allCases {
            guard let dict = passJSON[style.rawValue]?.objectValue else { continue }
            for group in PassFieldGroup.allCases {
                for item in dict[group.rawValue]?.arrayValue ?? [] {
                    guard let field = item.objectValue, let key = field["key"]?.stringValue, !key.isEmpty else {
                        continue
                    }
                    let isDate = field["dateStyle"] != nil || field["timeStyle"] != nil
                    out.append(Occurrence(key: key, value: field["value"], isDate: isDate))
                }
            }
        }
        return out
    }

    /// The template's value as the field's default, when all fields with the key agree on it.
    static func defaultValue(of occurrences: [Occurrence], for field: TemplateField) -> String? {
        guard let first = occurrences.first?.value, occurrences.allSatisfy({ $0.value == first }) else { return nil }
        let raw: String
        switch first {
        case .string(let text): raw = text
        case .integer(let number): raw = String(number)
        case .double(let number): raw = String(number)
        default: return nil
        }
        guard !raw.isEmpty, case .success(let value) = FieldValue.normalize(raw, for: field) else { return nil }
        return value
    }

    static func kind(of occurrences: [Occurrence]) -> TemplateField.Kind {
        let values = occurrences.map(\.value)
        if values.allSatisfy({ if case .integer? = $0 { return true } else { return false } }) { return .integer }
        if values.allSatisfy({ $0?.isNumber == true }) { return .decimal }
        let dates = occurrences.allSatisfy { occurrence in
            guard occurrence.isDate, let text = occurrence.value?.stringValue else { return false }
            return FieldValue.date(FieldValue.trimmed(text)) != nil
        }
        return dates ? .date : .string
    }

    /// Sets the `value` of every field whose key has a value in `values` (the fields in `names`), in every style
    /// dictionary and group of `root`. Numbers stay numbers: an integer or decimal field's value is written as
    /// a JSON number.
    static func apply(
        _ values: [String: String], names: Set<String>, kinds: [String: TemplateField.Kind],
        to root: inout [String: JSONValue]
    ) {
        guard !names.isEmpty else { return }
        for style in PassStyle.allCases {
            guard var dict = root[style.rawValue]?.objectValue else { continue }
            var changed = false
            for group in PassFieldGroup.allCases {
                guard var items = dict[group.rawValue]?.arrayValue else { continue }
                for (i, item) in items.enumerated() {
                    guard var field = item.objectValue, let key = field["key"]?.stringValue, names.contains(key),
                        let text = values[key]
                    else { continue }
                    field["value"] = json(text, kind: kinds[key])
                    items[i] = .object(field)
                    changed = true
                }
                dict[group.rawValue] = .array(items)
            }
            if changed { root[style.rawValue] = .object(dict) }
        }
    }

    static func json(_ text: String, kind: TemplateField.Kind?) -> JSONValue {
        switch kind {
        case .integer?: return Int64(text).map(JSONValue.integer) ?? .string(text)
        case .decimal?: return Double(text).map(JSONValue.double) ?? .string(text)
        default: return .string(text)
        }
    }
}

extension JSONValue {
    fileprivate var isNumber: Bool {
        switch self {
        case .integer, .double: return true
        default: return false
        }
    }
}
