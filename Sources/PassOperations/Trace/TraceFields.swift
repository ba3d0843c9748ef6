import PassMint
import PassModel
import PassStore
import PassTemplates

/// The pass fields a record renders to, so a trace can say which fields a change moved and whether Wallet showed
/// a notification for it (only a changed field with a `changeMessage` makes one).
struct TraceFields {
    /// A field as rendered: its value as text, label and `changeMessage`.
    struct Field: Equatable {
        var value: String
        var label: String?
        var changeMessage: String?
    }

    static let styles = ["boardingPass", "coupon", "eventTicket", "generic", "storeCard", "posterGeneric"]
    static let groups = ["headerFields", "primaryFields", "secondaryFields", "auxiliaryFields", "backFields"]

    let template: Template
    let pass: StoredPass

    /// The template of a stored pass (its stored version, or the folder it names); nil when it cannot be loaded.
    init?(pass: StoredPass, templates: (any TemplateVersionStore)?) {
        let loaded: Template?
        if let reference = TemplateReference(pass.templatePath) {
            loaded = (try? templates?.templateVersion(digest: reference.digest)).flatMap { version in
                version.flatMap { try? TemplateRenderer.template($0, name: reference.name) }
            }
        } else {
            loaded = try? PassFactory.loadTemplate(pass.templatePath)
        }
        guard let loaded else { return nil }
        template = loaded
        self.pass = pass
    }

    /// Field key → field, over every field group; nil when the record does not render.
    func fields(_ record: [String: String], voided: Bool) -> [String: Field]? {
        let context = RenderContext(
            serialNumber: pass.serialNumber, passTypeIdentifier: pass.passTypeIdentifier,
            webServiceURL: pass.webServiceURL, compatiblePass: pass.compatiblePass, voided: voided)
        guard let resolved = try? template.resolve(record.filter { !$0.key.hasPrefix(Template.imageKeyPrefix) }),
            let rendered = try? template.render(resolved, context: context),
            case .object(let root) = rendered.passJSON
        else { return nil }
        var fields: [String: Field] = [:]
        for style in Self.styles {
            guard case .object(let groups)? = root[style] else { continue }
            for group in Self.groups {
                guard case .array(let list)? = groups[group] else { continue }
                for case .object(let field) in list {
                    guard case .string(let key)? = field["key"] else { continue }
                    fields[key] = Field(
                        value: Self.text(field["attributedValue"] ?? field["value"]),
                        label: field["label"].flatMap(Self.string),
                        changeMessage: field["changeMessage"].flatMap(Self.string))
                }
            }
        }
        return fields
    }

    /// The fields whose value differs between two renderings (a field added or removed counts).
    static func changes(from old: [String: Field], to new: [String: Field]) -> [PassTrace.FieldChange] {
        Set(old.keys).union(new.keys).sorted().compactMap { key in
            let before = old[key], after = new[key]
            guard before?.value != after?.value else { return nil }
            return PassTrace.FieldChange(
                key: key, label: after?.label ?? before?.label, from: before?.value, to: after?.value,
                changeMessage: after?.changeMessage)
        }
    }

    private static func string(_ value: JSONValue) -> String? {
        if case .string(let text) = value { return text }
        return nil
    }

    private static func text(_ value: JSONValue?) -> String {
        switch value {
        case .string(let text)?: return text
        case .integer(let number)?: return String(number)
        case .double(let number)?: return number.description
        case .bool(let flag)?: return flag ? "true" : "false"
        case nil, .null?: return ""
        case let other?: return String(decoding: JSONWriter.serialize(other, pretty: false), as: UTF8.self)
        }
    }
}
