import Foundation
import Testing
import PassModel
@testable import PassMint
@testable import PassPreview
@testable import PassStore
@testable import PassHTTP
@testable import PassService
import PassMintTestSupport

/// `GET /p/:linkToken` and the admin link calls, answered in process through the real routing and store.
@Suite("Distribution link routes")
struct LinkRoutesTests {
    static let iPhone =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
        + "Version/18.1 Mobile/15E148 Safari/604.1"
    static let macSafari =
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 "
        + "Safari/605.1.15"
    static let desktopChrome =
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
    static let macChrome =
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 "
        + "Safari/537.36"
    let bearer = ["Authorization": "Bearer \(LiveService.adminToken)"]

    /// Stores `serial` (with a web service URL) and a link to it; returns the token.
    func linkedPass(_ live: LiveService, _ serial: String, webServiceURL: String? = "https://passes.example.com/")
        throws -> LinkToken
    {
        var pass = samplePass(serial)
        pass.webServiceURL = webServiceURL
        let token = LinkToken.generate()
        try live.store.insertPasses(
            [pass], links: [PassLinkGrant(serialNumber: serial, key: token.key)])
        return token
    }

    func expectSecurityHeaders(_ response: CurlResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.header("Referrer-Policy") == "no-referrer", sourceLocation: sourceLocation)
        #expect(response.header("Cache-Control") == "no-store", sourceLocation: sourceLocation)
        #expect(response.header("X-Content-Type-Options") == "nosniff", sourceLocation: sourceLocation)
        #expect(response.header("X-Robots-Tag") == "noindex, nofollow", sourceLocation: sourceLocation)
        let policy = response.header("Content-Security-Policy") ?? ""
        #expect(policy.contains("default-src 'none'") && !policy.contains("script-src"), sourceLocation: sourceLocation)
    }

    @Test(
        "Apple agents get the pass; other browsers the landing page",
        arguments: [
            (iPhone, true), (macSafari, true), ("Passbook/1.0 CFNetwork/1.0 Darwin/24.0", true),
            ("Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Safari/604.1", true),
            (desktopChrome, false), (macChrome, false),
            ("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0", false),
            ("curl/8.5.0", false), ("", false),
        ])
    func agents(agent: String, pass: Bool) {
        #expect(LinkHandlers.opensWallet(userAgent: agent) == pass)
    }

    @Test("an iPhone gets the same signed bytes a Wallet download gets, as an attachment")
    func iPhoneGetsThePass() throws {
        let live = try LiveService()
        let token = try linkedPass(live, "S1")
        let response = try live.call("GET", "/p/\(token.text)", headers: ["User-Agent": Self.iPhone])
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/vnd.apple.pkpass")
        #expect(response.header("Content-Disposition") == "attachment; filename=\"S1.pkpass\"")
        expectSecurityHeaders(response)
        let pass = try #require(try live.store.pass(serial: "S1"))
        let wallet = try live.call("GET", "/v1/passes/\(passType)/S1", headers: applePass(pass))
        #expect(wallet.status == 200 && response.body == wallet.body)
        #expect(live.renderer.renderCount == 1, "the second answer came from the render cache")
        // A desktop can ask for the pass itself.
        let download = try live.call("GET", "/p/\(token.text)?download=1", headers: ["User-Agent": Self.desktopChrome])
        #expect(download.status == 200 && download.body == wallet.body)
    }

    @Test("a desktop browser gets the landing page: title, button, a QR code of the absolute link")
    func landingPage() throws {
        let live = try LiveService()
        let token = try linkedPass(live, "S1")
        let response = try live.call("GET", "/p/\(token.text)", headers: ["User-Agent": Self.desktopChrome])
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/html; charset=utf-8")
        expectSecurityHeaders(response)
        #expect(response.text.contains("Add to Apple Wallet"))
        #expect(response.text.contains("href=\"?download=1\""))
        #expect(response.text.contains("<svg"), "the QR code is inline SVG")
        #expect(!response.text.contains("<script"))
        // The QR code is drawn from exactly the absolute link.
        let qr = try BarcodeImage.draw(
            PassBarcode(format: .qr, message: "https://passes.example.com/p/\(token.text)"), path: "link")
        #expect(response.text.contains(qr.svg))
    }

    @Test("the service's link base wins over the pass's web service URL; without either there is no QR code")
    func linkBase() throws {
        var configuration = ServiceConfiguration(host: "127.0.0.1", port: 0)
        configuration.linkBase = "https://go.example.com"
        let live = try LiveService(configuration: configuration)
        let token = try linkedPass(live, "S1")
        let page = try live.call("GET", "/p/\(token.text)")
        let qr = try BarcodeImage.draw(
            PassBarcode(format: .qr, message: "https://go.example.com/p/\(token.text)"), path: "link")
        #expect(page.text.contains(qr.svg))

        let plain = try LiveService()
        let bare = try linkedPass(plain, "S2", webServiceURL: nil)
        let noBase = try plain.call("GET", "/p/\(bare.text)")
        #expect(noBase.status == 200 && noBase.text.contains("Add to Apple Wallet") && !noBase.text.contains("<svg"))
    }

    @Test("unknown, malformed, revoked and expired links are the same 404; a voided pass's link is 410")
    func notServed() throws {
        let live = try LiveService()
        let token = try linkedPass(live, "S1")
        let other = try linkedPass(live, "S2")
        let voided = try linkedPass(live, "S3")
        let agents = [Self.iPhone, Self.desktopChrome]
        func status(_ token: String) throws -> [Int] {
            try agents.map { try live.call("GET", "/p/\(token)", headers: ["User-Agent": $0]).status }
        }
        #expect(try status(token.text) == [200, 200])
        let unknown = try live.call("GET", "/p/\(LinkToken.generate().text)", headers: ["User-Agent": Self.iPhone])
        #expect(unknown.status == 404 && unknown.header("Content-Type") == "text/html; charset=utf-8")
        expectSecurityHeaders(unknown)
        #expect(try status("short") == [404, 404])
        #expect(try status(token.text + "A") == [404, 404])

        _ = try live.store.revokeLink(serial: "S1")
        let revoked = try live.call("GET", "/p/\(token.text)", headers: ["User-Agent": Self.iPhone])
        #expect(revoked.status == 404 && revoked.text == unknown.text)

        _ = try live.store.setLinkExpiry(serial: "S2", expiresAt: live.fixture.clock.now.addingTimeInterval(30))
        #expect(try status(other.text) == [200, 200])
        live.fixture.clock.advance(31)
        #expect(try status(other.text) == [404, 404])

        var pass = try #require(try live.store.pass(serial: "S3"))
        pass.voided = true
        try live.store.insertPasses([pass])
        #expect(try status(voided.text) == [410, 410])
    }

    @Test("admin reissue: a new link (the old one 404s), optional expiry; revoke: 404 at once")
    func adminCalls() throws {
        let live = try LiveService()
        let old = try linkedPass(live, "S1")
        #expect(try live.call("POST", "/admin/v1/passes/S1/link").status == 401)
        #expect(try live.call("DELETE", "/admin/v1/passes/S1/link").status == 401)
        let reissued = try live.call(
            "POST", "/admin/v1/passes/S1/link", headers: bearer, body: jsonBody(["expiresAt": "2099-01-01T00:00:00Z"]))
        #expect(reissued.status == 200, "\(reissued.text)")
        let json = try #require(reissued.json)
        #expect(json["state"] as? String == "active")
        #expect(json["expiresAt"] as? String == "2099-01-01T00:00:00Z")
        let link = try #require(json["link"] as? String)
        #expect(link.hasPrefix("https://passes.example.com/p/"))
        let token = try #require(LinkToken(parsing: String(link.dropFirst("https://passes.example.com/p/".count))))
        #expect(try live.call("GET", "/p/\(old.text)").status == 404)
        #expect(try live.call("GET", "/p/\(token.text)").status == 200)

        let revoked = try live.call("DELETE", "/admin/v1/passes/S1/link", headers: bearer)
        #expect(revoked.status == 200 && revoked.json?["state"] as? String == "revoked")
        #expect(revoked.json?["link"] == nil)
        #expect(try live.call("GET", "/p/\(token.text)").status == 404)
        // A reissue without a body brings the pass back with a link that does not expire.
        let again = try live.call("POST", "/admin/v1/passes/S1/link", headers: bearer)
        #expect(again.status == 200 && again.json?["expiresAt"] == nil)
    }

    @Test("admin link errors: bad bodies 400, unknown serials 404, no base 409")
    func adminErrors() throws {
        let live = try LiveService()
        _ = try linkedPass(live, "S1")
        _ = try linkedPass(live, "BARE", webServiceURL: nil)
        let path = "/admin/v1/passes/S1/link"
        #expect(try live.call("POST", path, headers: bearer, body: jsonBody(["expiresAt": "soon"])).status == 400)
        #expect(try live.call("POST", path, headers: bearer, body: jsonBody(["expiresAt": 5])).status == 400)
        let unknown = try live.call("POST", path, headers: bearer, body: jsonBody(["token": "x"]))
        #expect(unknown.status == 400 && unknown.text.contains("token"))
        #expect(try live.call("POST", path, headers: bearer, body: Array("[1]".utf8)).status == 400)
        #expect(try live.call("POST", "/admin/v1/passes/NOPE/link", headers: bearer).status == 404)
        #expect(try live.call("DELETE", "/admin/v1/passes/NOPE/link", headers: bearer).status == 404)
        let bare = try live.call("POST", "/admin/v1/passes/BARE/link", headers: bearer)
        #expect(bare.status == 409 && bare.text.contains("link base"), "\(bare.text)")
    }

    @Test("the access log names the route pattern, never a link token")
    func accessLog() throws {
        let f = try StoreFixture()
        let logPath = f.directory.path("access.jsonl")
        let service = try WalletService(
            configuration: ServiceConfiguration(accessLog: try AccessLog(.file(logPath))), store: f.store,
            renderer: TestRenderer(), environment: [:])
        let token = LinkToken.generate()
        try f.sqlite.insertPasses([samplePass("S1")], links: [PassLinkGrant(serialNumber: "S1", key: token.key)])
        let statuses = [
            Request(method: .get, path: "/p/\(token.text)", headers: ["User-Agent": Self.iPhone]),
            Request(method: .get, path: "/p/\(token.text)", query: [("download", "1")]),
            Request(method: .get, path: "/p/\(LinkToken.generate().text)"),
        ].map { service.respond(to: $0).status }
        #expect(statuses == [200, 200, 404])
        service.stop()
        let text = try String(contentsOfFile: logPath, encoding: .utf8)
        #expect(text.split(separator: "\n").count == 3)
        #expect(text.contains("GET /p/:linkToken"))
        #expect(!text.contains(token.text) && !text.contains(token.hash) && !text.contains("S1"))
    }
}
