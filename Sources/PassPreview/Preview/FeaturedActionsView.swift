import PassModel

/// iOS 27 featured actions: at most two buttons under the pass, each with a glyph and a call to action.
enum FeaturedActionsView {
    static func html(_ card: PassCard) -> String {
        let actions = Array((card.source.pass.featuredActions ?? []).prefix(2))
        guard !actions.isEmpty else { return "" }
        var out = "<div class=\"actions\" style=\"width:\(PassCard.width)px\">"
        for action in actions {
            let (title, glyph) = FeaturedActionLabel.title(action.type)
            // A button links only to a web, mail or phone address; any other URL draws it without a link.
            let link = action.url.flatMap(HTMLText.safeLink)
            let tag = link == nil ? "div" : "a"
            out +=
                "<\(tag) class=\"action\" data-type=\"\(HTMLText.escape(action.type?.rawValue ?? ""))\""
                + (link.map { " href=\"\(HTMLText.escape($0))\"" } ?? "") + "><span class=\"glyph\">\(glyph)</span>"
                + "<span>\(HTMLText.escape(title))</span><span class=\"chev\">\u{203A}</span></\(tag)>"
        }
        return out + "</div>"
    }

    /// The height the buttons take below the card.
    static func height(_ card: PassCard) -> Int {
        let n = min(2, card.source.pass.featuredActions?.count ?? 0)
        return n == 0 ? 0 : 12 + n * 52
    }
}
