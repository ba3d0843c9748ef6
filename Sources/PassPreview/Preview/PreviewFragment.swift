/// A pass drawn for a page of someone else's (the service's distribution landing page): the same cards as
/// `passmint preview`, without a document around them.
public struct PreviewFragment: Sendable {
    /// The style sheet the markup needs (it also styles `body`, as the preview page does).
    public var css: String
    /// The front and featured actions of each pass; images inline as `data:` URLs, barcodes as inline SVG.
    public var html: String
}

extension PassPreview {
    /// The cards of `sources` as markup to place into another page.
    /// - Throws: `PreviewError.invalidInput` for a pass with no style, `.barcode` for a barcode that cannot be drawn.
    public static func fragment(_ sources: [PreviewSource], options: PreviewOptions = PreviewOptions())
        throws(PreviewError) -> PreviewFragment
    {
        var body = "<div class=\"passes\">"
        for source in sources {
            let card = try PassCard(source, options: options)
            body += "<div class=\"column\">" + FrontCard.html(card) + FeaturedActionsView.html(card) + "</div>"
        }
        body += "</div>"
        return PreviewFragment(css: PreviewStyleSheet.css, html: body)
    }
}
