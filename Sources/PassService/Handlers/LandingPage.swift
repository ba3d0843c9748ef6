import PassModel
import PassPreview

/// The HTML a browser that cannot add a pass itself gets for a distribution link: the pass drawn as Wallet
/// shows it, an "Add to Apple Wallet" button (the same link with `?download=1`) and a QR code of the link for
/// a phone's camera. Self-contained: the styles are inline, images are `data:` URLs, the QR code is inline SVG
/// drawn by libzint, and there is no script, so the page works under the strict policy of `LinkHandlers`.
enum LandingPage {
    /// The page of a pass whose signed archive is `pkpass`; without `link` (no link base known) the QR code is
    /// left out. A pass the preview cannot draw still gets its title, button and QR code.
    /// - Parameter google: also offer "Add to Google Wallet" (the same link with `?google=1`).
    static func html(pkpass: [UInt8], serial: String, link: String?, google: Bool = false) -> String {
        let source = try? PreviewSource.archive(pkpass, name: "\(serial).pkpass").first
        let preview = source.flatMap { try? PassPreview.fragment([$0]) }
        let organization = source?.pass.organizationName ?? "Apple Wallet pass"
        let description = source?.pass.description
        var body = "<main class=\"landing\"><h1>\(HTMLText.escape(organization))</h1>"
        if let description { body += "<p class=\"description\">\(HTMLText.escape(description))</p>" }
        if let preview { body += "<div class=\"preview\">\(preview.html)</div>" }
        body +=
            "<p><a class=\"add\" id=\"add-apple\" href=\"?download=1\" download=\"\(HTMLText.escape(serial)).pkpass\">"
            + "Add to Apple Wallet</a></p>"
        if google {
            body +=
                "<p><a class=\"add google\" id=\"add-google\" href=\"?google=1\">Add to Google Wallet</a></p>"
                + "<p class=\"platforms\">iPhone: Add to Apple Wallet. Android: Add to Google Wallet.</p>"
        }
        if let link, let qr = try? BarcodeImage.draw(PassBarcode(format: .qr, message: link), path: "link") {
            body +=
                "<figure class=\"qr\"><div class=\"code\">\(qr.svg)</div>"
                + "<figcaption>On a computer? Scan this with your iPhone's camera to add the pass.</figcaption></figure>"
        }
        body += "</main>"
        let title = description.map { "\(organization): \($0)" } ?? organization
        return document(title: title, css: (preview?.css ?? "") + style, body: body)
    }

    static let notFound = document(
        title: "Link not found", css: style,
        body: "<main class=\"landing\"><h1>This link does not work</h1><p>It may have expired or been withdrawn. "
            + "Ask the sender for a new one.</p></main>")

    static let googleUnavailable = document(
        title: "Google Wallet unavailable", css: style,
        body: "<main class=\"landing\"><h1>Google Wallet is not available for this pass right now</h1><p>Try "
            + "again later, or open the link on an iPhone.</p></main>")

    static let voided = document(
        title: "Pass withdrawn", css: style,
        body: "<main class=\"landing\"><h1>This pass is no longer valid</h1><p>The issuer has withdrawn it.</p></main>")

    private static let style = """
        .landing{max-width:420px;margin:0 auto;text-align:center;font-family:-apple-system,"Helvetica Neue",\
        "DejaVu Sans",Arial,sans-serif}
        .landing h1{font-size:24px;margin:16px 0 4px}.landing .description{margin:0 0 16px;color:#3a3a3c}
        .landing .preview .passes{justify-content:center}
        .landing .add{display:inline-block;margin:16px 0;padding:12px 22px;border-radius:10px;background:#000;\
        color:#fff;text-decoration:none;font-weight:600}
        .landing .add.google{background:#1a73e8}.landing .platforms{font-size:14px;color:#3a3a3c}
        .landing .qr{margin:8px auto 24px}.landing .qr .code{width:240px;height:240px;margin:0 auto;background:#fff}
        .landing .qr svg{display:block;width:100%;height:100%}.landing figcaption{font-size:14px;color:#3a3a3c}
        """

    private static func document(title: String, css: String, body: String) -> String {
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            + "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
            + "<meta name=\"referrer\" content=\"no-referrer\"><title>\(HTMLText.escape(title))</title>"
            + "<style>\(css)</style></head><body>\(body)</body></html>\n"
    }
}
