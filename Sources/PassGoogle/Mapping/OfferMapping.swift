import PassModel

/// coupon → OfferClass (title, provider, how to redeem) + OfferObject.
enum OfferMapping {
    static func build(_ ctx: inout MappingContext) {
        let pass = ctx.pass
        ctx.klass["issuerName"] = pass.organizationName.map(JSONValue.string)
        ctx.klass["provider"] = (pass.logoText ?? pass.organizationName).map(JSONValue.string)
        ctx.klass["reviewStatus"] = "UNDER_REVIEW"
        let hasBarcode = !(pass.barcodes ?? []).isEmpty || pass.barcode != nil
        ctx.klass["redemptionChannel"] = hasBarcode ? "INSTORE" : "ONLINE"
        if let title = ctx.takeFirst(
            in: [.primaryFields], where: { !FieldText.format($0.field, language: nil).isEmpty })
        {
            let text = [title.field.label, ctx.valueText(title.field)].compactMap { $0 }.filter { !$0.isEmpty }
                .joined(separator: " ")
            ctx.klass["title"] = .string(text)
        } else if let description = pass.description {
            ctx.klass["title"] = .string(description)
        }
        ctx.klass["titleImage"] = ctx.images["logo"]?.json
        ctx.klass["heroImage"] = ctx.images["strip"]?.json
        CommonModules.colour(&ctx, objectLevel: false)
    }
}
