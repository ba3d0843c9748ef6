import PassModel

/// eventTicket → EventTicketClass (one per event: name, venue, times) + EventTicketObject (holder, seat, ticket).
enum EventTicketMapping {
    static func build(_ ctx: inout MappingContext) {
        let pass = ctx.pass
        let semantics = pass.semantics
        ctx.klass["issuerName"] = pass.organizationName.map(JSONValue.string)
        ctx.klass["reviewStatus"] = "UNDER_REVIEW"
        ctx.klass["logo"] = ctx.images["logo"]?.json
        let hero = ctx.images["strip"] ?? ctx.images["artwork"]
        ctx.set("heroImage", hero?.json, on: hero?.isTemplates == false ? .object : .class)
        CommonModules.colour(&ctx, objectLevel: true)

        let eventField = ctx.take(keys: FieldSlots.eventName)
        if let name = semantics?.eventName ?? eventField.map({ ctx.valueText($0.field) }) ?? pass.description {
            ctx.klass["eventName"] = ctx.text.localized(name)
        }
        let venueField = ctx.take(keys: FieldSlots.venue)
        if let venueName = semantics?.venueName ?? venueField.map({ ctx.valueText($0.field) }) {
            let lines = [semantics?.venueRoom, semantics?.venueRegionName].compactMap { $0 }.filter { !$0.isEmpty }
            ctx.klass["venue"] = [
                "name": ctx.text.localized(venueName),
                "address": ctx.text.localized(lines.isEmpty ? venueName : lines.joined(separator: "\n")),
            ]
        }
        var times: [String: JSONValue] = [:]
        if let start = semantics?.eventStartDate { times["start"] = .string(start) }
        if let end = semantics?.eventEndDate { times["end"] = .string(end) }
        if let doors = semantics?["venueDoorsOpenDate"]?.stringValue { times["doorsOpen"] = .string(doors) }
        if !times.isEmpty { ctx.klass["dateTime"] = .object(times) }

        let holderField = ctx.take(keys: FieldSlots.holderName, where: { $0.field.value?.string != nil })
        if let holder = semantics?.attendeeName ?? holderField.map({ ctx.valueText($0.field) }) {
            ctx.object["ticketHolderName"] = .string(holder)
        }
        if let number = ctx.take(keys: FieldSlots.ticketNumber) {
            ctx.object["ticketNumber"] = .string(ctx.valueText(number.field))
        }
        var seat: [String: JSONValue] = [:]
        let seats = semantics?["seats"]?.arrayValue?.first
        for (part, keys, tag) in [
            ("seat", FieldSlots.seat, "seatNumber"), ("row", FieldSlots.row, "seatRow"),
            ("section", FieldSlots.section, "seatSection"), ("gate", FieldSlots.gate, ""),
        ] {
            let field = ctx.take(keys: keys)
            if let field {
                seat[part] = ctx.localizedValue(field.field)
            } else if let value = seats?[tag]?.stringValue, !value.isEmpty {
                seat[part] = ctx.text.localized(value)
            }
        }
        if !seat.isEmpty { ctx.object["seatInfo"] = .object(seat) }
        // The dates the class shows need no text module of their own.
        for keys in [["start", "date", "eventstart"], ["doors", "doorsopen"], ["ends", "end", "eventend"]] {
            _ = ctx.take(keys: keys, where: { $0.field.value?.date != nil })
        }
    }
}
