import PassModel

/// storeCard (and cards that mark themselves loyalty or membership cards) → LoyaltyClass + LoyaltyObject.
enum LoyaltyMapping {
    static func build(_ ctx: inout MappingContext) {
        let pass = ctx.pass
        if ctx.buildsClass {
            ctx.klass["issuerName"] = pass.organizationName.map(JSONValue.string)
            if let org = pass.organizationName { ctx.klass["localizedIssuerName"] = ctx.text.twin(org) }
            if let program = pass.logoText ?? pass.organizationName {
                ctx.klass["programName"] = .string(program)
                ctx.klass["localizedProgramName"] = ctx.text.twin(program)
            }
            ctx.klass["programLogo"] = ctx.images["logo"]?.json
            ctx.klass["heroImage"] = (ctx.images["strip"] ?? ctx.images["artwork"])?.json
            ctx.klass["reviewStatus"] = "UNDER_REVIEW"
            CommonModules.colour(&ctx, objectLevel: false)
        }

        if let name = ctx.take(keys: FieldSlots.holderName, where: { $0.field.value?.string != nil }) {
            ctx.object["accountName"] = .string(ctx.valueText(name.field))
            if let label = name.field.label { ctx.klass["accountNameLabel"] = .string(label) }
        }
        if let id = ctx.take(keys: FieldSlots.accountID) {
            ctx.object["accountId"] = .string(ctx.valueText(id.field))
            if let label = id.field.label { ctx.klass["accountIdLabel"] = .string(label) }
        }
        // A tier shown on the pass: the class's rewardsTier (there is a class per tier, for its colours and
        // images), and a text module of the object too: LoyaltyObject has no tier of its own, and the member's
        // object must say their tier wherever it is shown without its class.
        if let tier = ctx.takeFirst(onClass: true, where: isTier) {
            ctx.showOnObject(tier)
        }
        if let tier = ctx.shownOnObject.first, ctx.buildsClass {
            ctx.klass["rewardsTier"] = .string(ctx.valueText(tier.field))
            ctx.klass["localizedRewardsTier"] = ctx.localizedTwin(tier.field)
            if let label = tier.field.label {
                ctx.klass["rewardsTierLabel"] = .string(label)
                ctx.klass["localizedRewardsTierLabel"] = ctx.text.twin(label)
            }
        }
        let numeric: (LocatedField) -> Bool = { $0.field.value?.number != nil }
        let front: [PassFieldGroup] = [
            .primaryFields, .headerFields, .secondaryFields, .auxiliaryFields, .footerFields,
        ]
        if let main = ctx.takeFirst(in: front, where: { numeric($0) && $0.field.currencyCode == nil })
            ?? ctx.takeFirst(in: front, where: numeric)
        {
            ctx.object["loyaltyPoints"] = points(main.field, ctx)
        }
        if let second = ctx.takeFirst(in: front, where: numeric) {
            ctx.object["secondaryLoyaltyPoints"] = points(second.field, ctx)
        }
    }

    /// A front field whose key says tier, level or status.
    static func isTier(_ field: LocatedField) -> Bool {
        let key = MappingContext.normalized(field.field.key)
        return field.group != .backFields
            && ["tier", "level", "status", "rewardstier", "membershiplevel"].contains(key)
    }

    /// LoyaltyPoints: the label and the balance as an int, a double or money.
    static func points(_ field: PassField, _ ctx: MappingContext) -> JSONValue {
        var balance: [String: JSONValue] = [:]
        switch field.value {
        case .integer(let i)? where field.currencyCode == nil && i >= Int64(Int32.min) && i <= Int64(Int32.max):
            balance["int"] = .integer(i)
        case let value? where field.currencyCode != nil:
            let micros = Int64(((value.number ?? 0) * 1_000_000).rounded())
            balance["money"] = ["currencyCode": .string(field.currencyCode!), "micros": .string(String(micros))]
        case let value?:
            if let d = value.number {
                balance["double"] = .double(d)
            } else {
                balance["string"] = .string(value.description)
            }
        case nil:
            balance["string"] = ""
        }
        var out: [String: JSONValue] = ["balance": .object(balance)]
        if let label = field.label {
            out["label"] = .string(label)
            out["localizedLabel"] = ctx.text.twin(label)
        }
        return .object(out)
    }
}
