import Foundation

/// `passmint preview`: a faithful drawing of a pass (front, featured actions, and optionally its back) as one
/// self-contained HTML page, and a PNG of that page at 3x made by headless Chromium.
public enum PassPreview {
    /// The page for `sources` (one pass, or every pass of a bundle side by side).
    /// - Throws: `PreviewError.noStyle` for a pass with no style, `.barcode` for a barcode that cannot be drawn.
    public static func document(_ sources: [PreviewSource], options: PreviewOptions = PreviewOptions())
        throws(PreviewError) -> PreviewDocument
    {
        var cards: [PassCard] = []
        for source in sources { cards.append(try PassCard(source, options: options)) }
        let title = sources.map(\.name).joined(separator: ", ")
        let page = PreviewPage.document(cards, showBack: options.showBack, title: "Preview of \(title)")
        return PreviewDocument(
            html: page.html, width: page.width, height: page.height, measure: options.showBack,
            notes: cards.flatMap { card in card.notes.map { "\(card.source.name): \($0)" } })
    }

    /// Writes the page's HTML to `path` (to a temporary name, then renamed into place).
    /// - Throws: `PreviewError.output` naming the file.
    public static func writeHTML(_ document: PreviewDocument, to path: String) throws(PreviewError) {
        try write(Array(document.html.utf8), to: path)
    }

    /// Renders the page to a PNG at 3x with headless Chromium.
    /// - Throws: `PreviewError.environment` when Chromium is missing or fails, `.output` when `path` cannot be written.
    public static func writePNG(_ document: PreviewDocument, to path: String, browser: Chromium? = nil)
        throws(PreviewError)
    {
        let chosen: Chromium
        if let browser { chosen = browser } else { chosen = try Chromium.find() }
        try chosen.screenshot(document, to: path)
    }

    static func write(_ bytes: [UInt8], to path: String) throws(PreviewError) {
        let temporary = path + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else {
            throw .output(file: path, .cannotCreate(path: temporary))
        }
        if rename(temporary, path) != 0 {
            let code = errno
            unlink(temporary)
            throw .output(file: path, .rename(errno: code))
        }
    }
}
