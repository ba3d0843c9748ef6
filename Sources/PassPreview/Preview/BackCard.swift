import PassModel

/// The back of a pass: the organisation, then every back field (label over value, links made by Wallet's data
/// detectors unless `dataDetectorTypes` is `[]`), and a poster ticket's additional info fields.
enum BackCard {
    static func html(_ card: PassCard) -> String {
        var out =
            "<section class=\"pass back\" data-style=\"\(card.style.rawValue)\" style=\"width:\(PassCard.width)px\">"
        out += "<div class=\"backhead\">" + card.image("icon", "icon")
        out +=
            "<div class=\"org\">\(HTMLText.escape(card.format.text(card.source.pass.organizationName) ?? ""))</div></div>"
        var groups: [PassFieldGroup] = [.backFields]
        if card.style.isPoster { groups.insert(.additionalInfoFields, at: 0) }
        for group in groups {
            for f in card.structure[group] ?? [] {
                let label = card.format.label(f)
                let detect = f.dataDetectorTypes.map { !$0.isEmpty } ?? true
                out +=
                    "<div class=\"backfield\" data-group=\"\(group.rawValue)\" data-key=\"\(HTMLText.escape(f.key ?? ""))\">"
                    + (label.isEmpty ? "" : "<div class=\"label\">\(HTMLText.escape(label))</div>")
                    + "<div class=\"value\">\(backValue(card, f, detect: detect))</div></div>"
            }
        }
        return out + "</section>"
    }

    static func backValue(_ card: PassCard, _ f: PassField, detect: Bool) -> String {
        if let attributed = f.attributedValue?.string {
            return HTMLText.backValue(card.localizer(attributed), detectLinks: detect)
        }
        return HTMLText.backValue(card.format.value(f), detectLinks: detect)
    }
}
