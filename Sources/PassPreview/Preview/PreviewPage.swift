/// Whole HTML documents: one or more passes (front, featured actions, optionally back), and the gallery.
/// Every image is inlined as a `data:` URL and the barcodes are inline SVG, so a page needs no network and no
/// other file.
enum PreviewPage {
    /// The page for `cards`, with the size its screenshot needs (one column per pass, two with the back).
    static func document(_ cards: [PassCard], showBack: Bool, title: String) -> (html: String, width: Int, height: Int)
    {
        var body = "<div class=\"passes\">"
        var height = 0
        for card in cards {
            body +=
                "<div class=\"column\" data-pass=\"\(HTMLText.escape(card.source.name))\">"
                + FrontCard.html(card) + FeaturedActionsView.html(card) + "</div>"
            if showBack { body += "<div class=\"column\">" + BackCard.html(card) + "</div>" }
            height = max(height, card.height + FeaturedActionsView.height(card))
        }
        body += "</div>"
        let notes = cards.flatMap(\.notes)
        if !notes.isEmpty {
            body += "<div class=\"notes\" hidden>" + notes.map { "<p>\(HTMLText.escape($0))</p>" }.joined() + "</div>"
        }
        let columns = cards.count * (showBack ? 2 : 1)
        let width = 40 + columns * PassCard.width + (columns - 1) * 20
        return (wrap(body, title: title), width, height + 40)
    }

    static func wrap(_ body: String, title: String) -> String {
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>\(HTMLText.escape(title))</title>"
            + "<meta name=\"viewport\" content=\"width=device-width\"><style>\(PreviewStyleSheet.css)</style></head>"
            + "<body>\(body)</body></html>\n"
    }
}
