import PassModel

/// Replaces placeholders in a JSON tree or a string with record values. Works on parsed values only, so a
/// value is always data: `","voided":true,"x":"` stays one literal string.
struct Substituter {
    let values: [String: String]
    let kinds: [String: TemplateField.Kind]
    /// The value of `{{serialNumber}}`; nil while the serial number itself is being built.
    let serialNumber: String?

    /// The tree with every string value substituted. A string that is exactly one placeholder of an integer or
    /// decimal field with a value becomes a JSON number. Member names are left alone.
    func apply(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let s):
            guard PlaceholderText.mayContainPlaceholder(s), case .success(let segments) = PlaceholderText.segments(s)
            else { return value }
            return self.value(of: segments)
        case .array(let items):
            return .array(items.map(apply))
        case .object(let members):
            return .object(members.mapValues(apply))
        case .null, .bool, .integer, .double:
            return value
        }
    }

    /// A string value of `segments` substituted: a number when it is exactly one placeholder of an integer or
    /// decimal field with a value, else the joined text.
    func value(of segments: [PlaceholderText.Segment]) -> JSONValue {
        if segments.count == 1, case .placeholder(let name) = segments[0], let number = number(for: name) {
            return number
        }
        return .string(join(segments))
    }

    /// `s` with its placeholders replaced.
    func text(_ s: String) -> String {
        guard PlaceholderText.mayContainPlaceholder(s), case .success(let segments) = PlaceholderText.segments(s)
        else { return s }
        return join(segments)
    }

    private func join(_ segments: [PlaceholderText.Segment]) -> String {
        var out = ""
        for segment in segments {
            switch segment {
            case .literal(let text): out += text
            case .placeholder(let name): out += lookup(name)
            }
        }
        return out
    }

    /// A field with no value (optional, no default) becomes the empty string.
    private func lookup(_ name: String) -> String {
        if name == Template.serialNumberPlaceholder, let serialNumber { return serialNumber }
        return values[name] ?? ""
    }

    private func number(for name: String) -> JSONValue? {
        guard let value = values[name] else { return nil }
        switch kinds[name] {
        case .integer: return Int64(value).map(JSONValue.integer)
        case .decimal: return Double(value).map(JSONValue.double)
        default: return nil
        }
    }
}
