import Foundation
import Testing

/// Distribution links end to end: `generate --db` and `batch --db` print links, `passmint serve` answers them,
/// and independent tools check what comes back (openssl cms -verify, headless Chromium and zbarimg, sqlite3).
@Suite("serve: distribution links (end to end)", .serialized)
struct ServeLinksTests {
    /// A link token's length (`LinkToken.length`): a 12-byte selector and 24 random bytes in base64url.
    static let tokenLength = 48

    static let iPhone =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
        + "Version/18.1 Mobile/15E148 Safari/604.1"
    static let desktopChrome =
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
    static let browserTools: Bool = ["/usr/bin/chromium", "/usr/bin/zbarimg"].allSatisfy {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The path of an absolute link on the fixture's service (`/p/<token>`), checked to start at its base.
    static func path(of link: String, in f: ServeFixture) throws -> String {
        guard link.hasPrefix(f.base + "/p/") else { throw ServeFailure("link \(link) is not under \(f.base)/p/") }
        return String(link.dropFirst(f.base.count))
    }

    /// The link a command printed on a `link: URL` line of stdout.
    static func printedLink(_ result: CLI.Result) throws -> String {
        guard let line = result.stdout.split(separator: "\n").first(where: { $0.hasPrefix("link: ") }) else {
            throw ServeFailure("no link line in: \(result.stdout) \(result.stderr)")
        }
        return String(line.dropFirst("link: ".count))
    }

    /// `generate --db … --web-service-url` of a status pass; returns the link it printed.
    static func generate(_ f: ServeFixture, serial: String) throws -> String {
        let result = try CLI.passmint(
            ["generate", "--template", ServeTools.status] + f.storeArguments
                + ["--web-service-url", f.base + "/", "--serial", serial, "--out", f.tmp.path("\(serial).pkpass")]
                + DevIdentity.signingArgs)
        guard result.status == 0 else { throw ServeFailure("generate \(serial): \(result.stderr)") }
        return try printedLink(result)
    }

    /// GET of a link with a user agent; a pass body is written to `file`.
    static func fetch(_ f: ServeFixture, _ link: String, agent: String) throws -> HTTPReply {
        try f.http("GET", try path(of: link, in: f), headers: ["User-Agent": agent])
    }

    /// Whether the link gives an iPhone a pass that `openssl cms -verify` accepts.
    static func servesVerifiedPass(_ f: ServeFixture, _ link: String) throws -> Bool {
        let reply = try fetch(f, link, agent: iPhone)
        guard reply.status == 200, reply.headers["content-type"] == "application/vnd.apple.pkpass" else {
            return false
        }
        let file = f.tmp.path("fetched-\(UUID().uuidString).pkpass")
        try reply.body.write(to: URL(fileURLWithPath: file))
        return try ServeTools.opensslVerifies(file, tmp: f.tmp)
    }

    @Test("generate prints the link; an iPhone gets a verified pass, a desktop browser the landing page")
    func generateAndOpen() throws {
        let f = try ServeFixture(python: nil)
        defer { f.stop() }
        let link = try Self.generate(f, serial: "LINK-1")
        #expect(link.count == (f.base + "/p/").count + Self.tokenLength)
        // The store keeps the selector (the first 16 characters) and the hash, never the rest of the token.
        let token = String(link.suffix(Self.tokenLength))
        #expect(try ServeTools.sqlite(f.db, "select count(*) from pass_links where serial = 'LINK-1'") == "1")
        #expect(
            try ServeTools.sqlite(f.db, "select selector from pass_links where serial = 'LINK-1'")
                == String(token.prefix(16)))
        #expect(try !ServeTools.sqlite(f.db, ".dump").contains(token.dropFirst(16)))

        let pass = try Self.fetch(f, link, agent: Self.iPhone)
        #expect(pass.status == 200)
        #expect(pass.headers["content-type"] == "application/vnd.apple.pkpass")
        #expect(pass.headers["content-disposition"] == "attachment; filename=\"LINK-1.pkpass\"")
        #expect(pass.headers["referrer-policy"] == "no-referrer" && pass.headers["cache-control"] == "no-store")
        let file = f.tmp.path("link.pkpass")
        try pass.body.write(to: URL(fileURLWithPath: file))
        #expect(try ServeTools.opensslVerifies(file, tmp: f.tmp), "openssl cms -verify rejected the linked pass")
        #expect(try ServeTools.passJSON(file)["serialNumber"] as? String == "LINK-1")

        let page = try Self.fetch(f, link, agent: Self.desktopChrome)
        #expect(page.status == 200 && page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.text.contains("Add to Apple Wallet") && page.text.contains("<svg"))
        #expect(page.headers["content-security-policy"]?.contains("default-src 'none'") == true)
        // The access log is flushed once a second: wait for the link's lines, then look for the token.
        let logged = waitUntil { f.serve.stderr.components(separatedBy: "GET /p/:linkToken").count > 2 }
        #expect(logged, "the access log names the route: \(f.serve.stderr)")
        #expect(!f.serve.stderr.contains(token), "the token reached serve's log")
    }

    @Test(
        "headless Chromium shows the landing page; zbarimg reads its QR code as exactly the link",
        .enabled(if: browserTools, "needs chromium and zbarimg (scripts/install-deps)"))
    func landingPageQRCode() throws {
        let f = try ServeFixture(python: nil)
        defer { f.stop() }
        let link = try Self.generate(f, serial: "LINK-QR")
        let shot = f.tmp.path("landing.png")
        // Chromium fetches the page from the running service itself, with its own (desktop) user agent.
        let browser = try CLI.run(
            "/usr/bin/chromium",
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--user-data-dir=\(f.tmp.path("chromium"))", "--hide-scrollbars",
                "--window-size=600,1400", "--screenshot=\(shot)", link,
            ])
        #expect(browser.status == 0, "\(browser.stderr)")
        let decoded = try CLI.run("zbarimg", ["-q", shot]).stdout.split(separator: "\n").map(String.init)
        // The pass's own barcode is drawn too (the status template's is not a QR code): the QR code is the link.
        #expect(decoded.filter { $0.hasPrefix("QR-Code:") } == ["QR-Code:\(link)"], "zbarimg read \(decoded)")
    }

    @Test("passmint links: revoke → 404; reissue → old 404, new works; expire → 404; a voided pass → 410")
    func revokeReissueExpireVoid() throws {
        let f = try ServeFixture(python: nil)
        defer { f.stop() }
        let link = try Self.generate(f, serial: "LINK-2")
        #expect(try Self.servesVerifiedPass(f, link))
        func links(_ arguments: [String]) throws -> CLI.Result {
            try CLI.passmint(["links"] + arguments + f.storeArguments)
        }

        let shown = try links(["show", "LINK-2"])
        #expect(shown.status == 0 && shown.stdout.hasPrefix("LINK-2: active,"), "\(shown.stdout)\(shown.stderr)")
        #expect(!shown.stdout.contains(String(link.suffix(Self.tokenLength))))

        let revoked = try links(["revoke", "LINK-2"])
        #expect(revoked.status == 0 && revoked.stdout.contains("revoked"), "\(revoked.stderr)")
        #expect(try Self.fetch(f, link, agent: Self.iPhone).status == 404)
        #expect(try Self.fetch(f, link, agent: Self.desktopChrome).status == 404)

        let reissued = try links(["reissue", "LINK-2", "--in", "30d"])
        #expect(reissued.status == 0, "\(reissued.stderr)")
        let fresh = try Self.printedLink(reissued)
        #expect(fresh != link && fresh.hasPrefix(f.base + "/p/"))
        #expect(reissued.stdout.contains("active") && !reissued.stdout.contains("expires never"))
        #expect(try Self.fetch(f, link, agent: Self.iPhone).status == 404)
        #expect(try Self.servesVerifiedPass(f, fresh))

        let expired = try links(["expire", "LINK-2"])
        #expect(expired.status == 0 && expired.stdout.contains("expired"), "\(expired.stdout)\(expired.stderr)")
        #expect(try Self.fetch(f, fresh, agent: Self.iPhone).status == 404)

        // Errors name the pass and what to do; usage errors exit 2.
        let unknown = try links(["show", "NOPE"])
        #expect(unknown.status == 1 && unknown.stderr.contains("NOPE"))
        #expect(try links(["rotate", "LINK-2"]).status == 2)
        let badDuration = try links(["reissue", "LINK-2", "--in", "soon"])
        #expect(badDuration.status == 1 && badDuration.stderr.contains("30d"), "\(badDuration.stderr)")

        // A voided pass's link stops serving.
        let voidedLink = try Self.generate(f, serial: "LINK-3")
        #expect(try Self.fetch(f, voidedLink, agent: Self.iPhone).status == 200)
        let voided = try CLI.passmint(["update", "LINK-3", "--void"] + f.storeArguments + DevIdentity.signingArgs)
        #expect(voided.status == 0, "\(voided.stderr)")
        #expect(try Self.fetch(f, voidedLink, agent: Self.iPhone).status == 410)
        #expect(try Self.fetch(f, voidedLink, agent: Self.desktopChrome).status == 410)
        let voidedShown = try CLI.passmint(["links", "show", "LINK-3"] + f.storeArguments)
        #expect(
            voidedShown.status == 0 && voidedShown.stdout.contains("the pass is voided, so the link answers 410"),
            "\(voidedShown)")
        // Issuing the voided serial again with new values updates it, still voided: the summary must not promise a
        // working link.
        let again = try CLI.passmint(
            ["generate", "--template", ServeTools.status] + f.storeArguments
                + ["--web-service-url", f.base + "/", "--serial", "LINK-3", "--set", "memberName=Grace Hopper"]
                + ["--out", f.tmp.path("LINK-3-again.pkpass")] + DevIdentity.signingArgs)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("the pass stays voided, so its distribution link answers 410"), "\(again.stdout)")
        #expect(!again.stdout.contains("still works"), "\(again.stdout)")
        #expect(try Self.fetch(f, voidedLink, agent: Self.iPhone).status == 410)
    }

    @Test(
        "on PostgreSQL: the link serves a verified pass; revoke, reissue and void act across serve and the CLI",
        .enabled(if: TestPostgres.url != nil, Comment(rawValue: TestPostgres.skipReason)))
    func postgres() throws {
        let f = try ServeFixture(python: nil, postgres: try TestPostgres.freshSchema())
        defer { f.stop() }
        let postgres = try #require(f.postgres)
        let link = try Self.generate(f, serial: "PG-LINK")
        #expect(try Self.servesVerifiedPass(f, link))
        #expect(try TestPostgres.psql(postgres, "SELECT count(*) FROM pass_links") == "1")
        #expect(
            try !TestPostgres.psql(postgres, "SELECT token_hash FROM pass_links").contains(
                String(link.suffix(Self.tokenLength))))
        #expect(
            try TestPostgres.psql(postgres, "SELECT selector FROM pass_links")
                == String(link.suffix(Self.tokenLength).prefix(16)))
        #expect(try CLI.passmint(["links", "revoke", "PG-LINK"] + f.storeArguments).status == 0)
        #expect(try Self.fetch(f, link, agent: Self.iPhone).status == 404)
        let reissued = try CLI.passmint(["links", "reissue", "PG-LINK"] + f.storeArguments)
        #expect(reissued.status == 0, "\(reissued.stderr)")
        let fresh = try Self.printedLink(reissued)
        #expect(try Self.fetch(f, link, agent: Self.iPhone).status == 404)
        #expect(try Self.servesVerifiedPass(f, fresh))
        #expect(try Self.fetch(f, fresh, agent: Self.desktopChrome).text.contains("Add to Apple Wallet"))
        let voided = try CLI.passmint(["update", "PG-LINK", "--void"] + f.storeArguments + DevIdentity.signingArgs)
        #expect(voided.status == 0, "\(voided.stderr)")
        #expect(try TestPostgres.psql(postgres, "SELECT voided FROM passes WHERE serial = 'PG-LINK'") == "t")
        #expect(try Self.fetch(f, fresh, agent: Self.iPhone).status == 410)
    }

    @Test("batch --db: every issued row of the report has a link that serves its verified pass")
    func batchReportLinks() throws {
        let f = try ServeFixture(python: nil)
        defer { f.stop() }
        let csv = f.tmp.path("members.csv")
        try "memberName,tier\nAda,Gold\nGrace,Silver\nBad,Diamond\nKatherine,Platinum\n".write(
            toFile: csv, atomically: true, encoding: .utf8)
        let report = f.tmp.path("report.jsonl")
        let result = try CLI.passmint(
            ["batch", "--template", ServeTools.status, "--csv", csv, "--out", f.tmp.path("out"), "--report", report]
                + f.storeArguments + ["--web-service-url", f.base + "/"] + DevIdentity.signingArgs)
        #expect(result.status == 1, "one record is invalid: \(result.stderr)")
        let rows = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(rows.count == 4)
        var served = 0
        for row in rows {
            if row["status"] as? String == "failed" {
                #expect(row["link"] == nil)
                continue
            }
            let link = try #require(row["link"] as? String, "no link in \(row)")
            #expect(try Self.servesVerifiedPass(f, link), "\(link)")
            let pass = try Self.fetch(f, link, agent: Self.iPhone)
            let file = f.tmp.path("row-\(served).pkpass")
            try pass.body.write(to: URL(fileURLWithPath: file))
            #expect(try ServeTools.passJSON(file)["serialNumber"] as? String == row["serialNumber"] as? String)
            served += 1
        }
        #expect(served == 3)
        #expect(try ServeTools.sqlite(f.db, "select count(*) from pass_links") == "3")
    }

    @Test("generate --db without a web service URL says it made no link; --link-base gives one under that base")
    func generateWithoutWebService() throws {
        let tmp = try TempDir()
        let db = tmp.path("store.db")
        let plain = try CLI.passmint(
            [
                "generate", "--template", ServeTools.status, "--db", db, "--serial", "BARE-1", "--out",
                tmp.path("a.pkpass"),
            ]
                + DevIdentity.signingArgs)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(!plain.stdout.contains("link:") && plain.stderr.contains("no distribution link"), "\(plain.stderr)")
        #expect(try ServeTools.sqlite(db, "select count(*) from pass_links") == "0")

        let based = try CLI.passmint(
            [
                "generate", "--template", ServeTools.status, "--db", db, "--serial", "BARE-2", "--link-base",
                "https://go.example.com/", "--out", tmp.path("b.pkpass"),
            ] + DevIdentity.signingArgs)
        #expect(based.status == 0, "\(based.stderr)")
        let link = try Self.printedLink(based)
        #expect(
            link.hasPrefix("https://go.example.com/p/")
                && link.count == "https://go.example.com/p/".count + Self.tokenLength)
        // `links reissue` needs a base for the pass without one.
        let refused = try CLI.passmint(["links", "reissue", "BARE-1", "--db", db])
        #expect(refused.status == 1 && refused.stderr.contains("--link-base"), "\(refused.stderr)")
        let given = try CLI.passmint([
            "links", "reissue", "BARE-1", "--link-base", "https://go.example.com", "--db", db,
        ])
        #expect(given.status == 0, "\(given.stderr)")
        #expect(try Self.printedLink(given).hasPrefix("https://go.example.com/p/"))
    }

    static let usageCases: [([String], Int32)] = [
        (["links", "show", "S", "--in", "3d"], 2), (["links", "revoke", "S", "--expires", "2027-01-01"], 2),
        (["links", "reissue", "S", "--in", "3d", "--expires", "2027-01-01"], 2),
        (["links", "expire", "S", "--link-base", "https://go.example.com"], 2), (["links", "show"], 2),
        (
            [
                "generate", "--template", "Templates/status", "--out", "x.pkpass", "--link-base",
                "https://a.example",
            ], 2
        ),
        (["links", "reissue", "S", "--link-base", "go.example.com"], 1),
    ]

    @Test(
        "link options that do not fit are usage errors (exit 2); a bad link base names the option (exit 1)",
        arguments: usageCases)
    func usage(arguments: [String], status: Int32) throws {
        let tmp = try TempDir()
        let store = arguments.first == "links" ? ["--db", tmp.path("store.db")] : []
        let result = try CLI.passmint(arguments + store, cwd: CLI.root)
        #expect(result.status == status, "\(arguments): \(result.stderr)")
        if status == 1 { #expect(result.stderr.contains("--link-base")) }
        #expect(!FileManager.default.fileExists(atPath: CLI.root.appendingPathComponent("x.pkpass").path))
    }
}
