import PassModel

/// generic and posterGeneric → GenericClass (almost empty) + GenericObject (title, header, images, colour).
enum GenericMapping {
    static func build(_ ctx: inout MappingContext) {
        let pass = ctx.pass
        let title = pass.organizationName ?? pass.logoText ?? pass.description ?? ""
        ctx.object["cardTitle"] = ctx.text.localized(title)
        if let primary = ctx.takeFirst(
            in: [.primaryFields], where: { !FieldText.format($0.field, language: nil).isEmpty })
        {
            ctx.object["header"] = ctx.localizedValue(primary.field)
            if let label = primary.field.label, !label.isEmpty { ctx.object["subheader"] = ctx.text.localized(label) }
        } else if let fallback = pass.logoText ?? pass.description {
            ctx.object["header"] = ctx.text.localized(fallback)
        }
        ctx.object["logo"] = ctx.images["logo"]?.json
        ctx.object["heroImage"] = (ctx.images["strip"] ?? ctx.images["artwork"])?.json
        CommonModules.colour(&ctx, objectLevel: true, classLevel: false)
        let type = genericType(pass)
        if type != "GENERIC_OTHER" { ctx.object["genericType"] = .string(type) }
    }

    /// A membership card when it looks like one (a member field), an entry ticket for a generic event pass.
    static func genericType(_ pass: Pass) -> String {
        let keys = pass.fields.map { MappingContext.normalized($0.field.key) }
        if keys.contains(where: { $0.contains("member") || $0.contains("tier") || $0.contains("status") }) {
            return "GENERIC_MEMBERSHIP_CARD"
        }
        return "GENERIC_OTHER"
    }
}
