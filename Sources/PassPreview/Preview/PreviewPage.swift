import Foundation

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

    /// What a page may do, as the service's landing page allows it: nothing loaded from anywhere, no script, no
    /// form, styles and `data:` images inline only. A pass is data from outside; its page must not run it.
    static let contentSecurityPolicy =
        "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

    static func wrap(_ body: String, title: String) -> String {
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            + "<meta http-equiv=\"Content-Security-Policy\" content=\"\(contentSecurityPolicy)\">"
            + "<title>\(HTMLText.escape(title))</title>"
            + "<meta name=\"viewport\" content=\"width=device-width\"><style>\(PreviewStyleSheet.css)</style></head>"
            + "<body>\(body)</body></html>\n"
    }

    /// `html` with one script of PassMint's own added at the end of the body and allowed by a nonce in its policy
    /// (nothing else the page holds may run): for measuring a page in the browser, never for a page written out.
    static func probe(_ html: String, script: String) -> String {
        var random = SystemRandomNumberGenerator()
        let nonce = (0..<4).map { _ in String(random.next() as UInt64, radix: 16) }.joined()
        return
            html
            .replacingOccurrences(
                of: "content=\"\(contentSecurityPolicy)\"",
                with: "content=\"\(contentSecurityPolicy); script-src 'nonce-\(nonce)'\""
            )
            .replacingOccurrences(of: "</body>", with: "<script nonce=\"\(nonce)\">\(script)</script></body>")
    }
}
