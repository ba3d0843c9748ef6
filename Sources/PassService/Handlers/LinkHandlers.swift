import PassArchive
import Foundation
import PassMint
import PassModel
import PassStore
import PassHTTP
import PassPreview
import PassLog

/// Distribution links: `GET /p/:linkToken` (the pass for Apple devices, a landing page for any other browser)
/// and the admin calls that reissue and revoke a pass's link.
///
/// Unknown, revoked and expired links all answer the same 404, so an answer says nothing about a token's past;
/// a voided pass's link answers 410 (the holder learns the pass was withdrawn, not that the link is mistyped).
/// Guessing is moot: a token has 256 random bits. The access log records the route pattern, never the path.
struct LinkHandlers: Sendable {
    let context: HandlerContext
    /// nil: the store keeps no links (every link is unknown).
    let links: (any PassLinkStore)?
    /// Where absolute links start; nil: at each pass's web service URL.
    let linkBase: String?
    /// Google Wallet's save links; nil when `serve` has no Google identity (the page offers Apple Wallet only).
    var google: GoogleWalletHooks? = nil

    /// Headers of every answer under `/p/`: nothing cached, the token never leaves in a Referer, nothing loaded
    /// from elsewhere and no script (the page has none), never framed, never indexed by a search engine.
    static let securityHeaders: [(name: String, value: String)] = [
        (
            "Content-Security-Policy",
            "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; "
                + "frame-ancestors 'none'"
        ),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("X-Robots-Tag", "noindex, nofollow"),
    ]

    /// `GET /p/:linkToken` (`?download=1` asks for the pass whatever the browser, `?google=1` for Google
    /// Wallet's save link). An Android browser is sent to Google Wallet's save link, an iPhone, iPad or Mac
    /// Safari gets the pass, any other browser a page with both buttons.
    func open(_ request: Request) throws(HTTPError) -> Response {
        guard let token = LinkToken(parsing: request.parameters["linkToken"]), let links,
            let target = try context.storeCall({ try links.openLink(token.key) }), target.state == .active
        else { return Self.page(404, LandingPage.notFound) }
        guard !target.voided else { return Self.page(410, LandingPage.voided) }
        let serial = target.serialNumber
        if let google, request.queryValue("download") != "1",
            request.queryValue("google") == "1" || Self.isAndroid(userAgent: request.headers["User-Agent"])
        {
            return try saveToGoogle(serial: serial, google)
        }
        let wantsPass =
            request.queryValue("download") == "1" || Self.opensWallet(userAgent: request.headers["User-Agent"])
        // A cached current version is served without reading the record; the record is read to render the pass
        // anew, or for the landing page's link when the service has no link base of its own.
        let cached = context.cachedBody(serial: serial, tag: target.tag)
        var pass: StoredPass?
        if cached == nil || (!wantsPass && linkBase == nil) {
            pass = try context.storeCall { try context.store.pass(serial: serial) }
            // Removed or voided since the link was looked up.
            guard let pass else { return Self.page(404, LandingPage.notFound) }
            guard !pass.voided else { return Self.page(410, LandingPage.voided) }
        }
        let body: ArchiveParts
        if let cached {
            body = cached
        } else if let pass {
            body = try context.currentBody(pass)
        } else {
            return Self.page(404, LandingPage.notFound)  // not reached: a miss reads the pass above
        }
        guard wantsPass else {
            let link = (linkBase ?? pass?.webServiceURL).map { PassLink(base: $0, token: token) }
            return Self.page(
                200, LandingPage.html(pkpass: body.bytes, serial: serial, link: link?.url, google: google != nil))
        }
        var response = Response(
            status: 200,
            headers: [
                "Content-Type": "application/vnd.apple.pkpass",
                "Content-Disposition": "attachment; filename=\"\(serial).pkpass\"",
            ],
            body: .parts(body))
        for header in Self.securityHeaders { response.headers.add(header.name, header.value) }
        return response
    }

    /// 302 to a fresh save link of the pass (signed now, so it carries the pass as it is now).
    private func saveToGoogle(serial: String, _ google: GoogleWalletHooks) throws(HTTPError) -> Response {
        guard let pass = try context.storeCall({ try context.store.pass(serial: serial) }) else {
            return Self.page(404, LandingPage.notFound)
        }
        guard !pass.voided else { return Self.page(410, LandingPage.voided) }
        let url: String
        do { url = try google.saveLink(pass) } catch {
            ServiceLog.error("google: the save link of \(serial) cannot be made: \(error)")
            return Self.page(503, LandingPage.googleUnavailable)
        }
        var response = Response.empty(302)
        response.headers.add("Location", url)
        for header in Self.securityHeaders { response.headers.add(header.name, header.value) }
        return response
    }

    /// Android's browsers (Chrome and the rest name Android in their agent); Google Wallet takes the pass there.
    static func isAndroid(userAgent: String?) -> Bool {
        userAgent?.contains("Android") ?? false
    }

    /// Whether a browser can add a pass itself: Safari on iPhone, iPad and Mac, other iOS browsers (they use
    /// Safari's engine and hand the pass to Wallet), and Wallet's own agents.
    static func opensWallet(userAgent: String?) -> Bool {
        guard let agent = userAgent else { return false }
        if agent.contains("iPhone") || agent.contains("iPad") || agent.contains("iPod") { return true }
        if agent.hasPrefix("Passbook/") || agent.hasPrefix("PassKit/") || agent.contains("Wallet/") { return true }
        // Mac Safari (and iPadOS Safari, which says Macintosh): Safari's "Version/" without another engine's name.
        let others = ["Chrome/", "Chromium/", "Firefox/", "Edg/", "OPR/", "HeadlessChrome"]
        return agent.contains("Macintosh") && agent.contains("Safari/") && agent.contains("Version/")
            && !others.contains { agent.contains($0) }
    }

    private static func page(_ status: Int, _ html: String) -> Response {
        var response = Response.text(status, html, contentType: "text/html; charset=utf-8")
        for header in securityHeaders { response.headers.add(header.name, header.value) }
        return response
    }

    /// `POST /admin/v1/passes/:serial/link`: a new link (the old one stops working). Optional body
    /// `{"expiresAt": "2027-01-31T00:00:00Z"}`. Answers the link and its state.
    func reissue(_ request: Request) throws(HTTPError) -> Response {
        try context.authorizeAdmin(request)
        let links = try requireLinks()
        let serial = request.parameters["serial"]
        var expiresAt: Date?
        if !request.body.isEmpty {
            let body = try decodeObjectBody(request, expected: #"{"expiresAt": "2027-01-31T00:00:00Z"}"#)
            if let value = body["expiresAt"], value != .null {
                guard let text = value.stringValue, let date = ISO8601DateFormatter().date(from: text) else {
                    throw .badRequest("expiresAt must be an ISO 8601 time such as 2027-01-31T00:00:00Z")
                }
                expiresAt = date
            }
            if let unknown = body.keys.first(where: { $0 != "expiresAt" }) {
                throw .badRequest("unknown member \(unknown); the body may only hold expiresAt")
            }
        }
        guard let pass = try context.storeCall({ try context.store.pass(serial: serial) }) else {
            throw .notFound("no stored pass has serial number \(serial)")
        }
        guard let base = linkBase ?? pass.webServiceURL else {
            throw HTTPError(
                409,
                "pass \(serial) has no web service URL and the service has no link base, so no absolute link "
                    + "can be formed; configure a link base")
        }
        let link = PassLink(base: base, token: .generate())
        let info = try context.storeCall {
            try links.reissueLink(
                PassLinkGrant(serialNumber: serial, key: link.token.key, expiresAt: expiresAt))
        }
        return .json(200, encoding: LinkView(info, link: link.url))
    }

    /// `DELETE /admin/v1/passes/:serial/link`: the link stops working at once (404); reissue to give a new one.
    func revoke(_ request: Request) throws(HTTPError) -> Response {
        try context.authorizeAdmin(request)
        let links = try requireLinks()
        let serial = request.parameters["serial"]
        guard let info = try context.storeCall({ try links.revokeLink(serial: serial) }) else {
            throw .notFound("pass \(serial) has no distribution link")
        }
        return .json(200, encoding: LinkView(info, link: nil))
    }

    private func requireLinks() throws(HTTPError) -> any PassLinkStore {
        guard let links else { throw .notFound("this store keeps no distribution links") }
        return links
    }

    /// What the admin calls answer; `link` only right after a reissue (the store keeps no token).
    struct LinkView: Encodable {
        var serialNumber: String
        var state: String
        var createdAt: Date
        var expiresAt: Date?
        var revokedAt: Date?
        var link: String?

        init(_ info: PassLinkInfo, link: String?) {
            serialNumber = info.serialNumber
            state = info.state.rawValue
            createdAt = info.createdAt
            expiresAt = info.expiresAt
            revokedAt = info.revokedAt
            self.link = link
        }
    }
}
