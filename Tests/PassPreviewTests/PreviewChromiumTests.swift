import Foundation
import Testing
import PassMintTestSupport
import PassModel
@testable import PassMint
@testable import PassPreview

/// The preview as a person sees it: headless Chromium draws the HTML, the PNG is checked for the pass's colour,
/// the laid-out DOM for each field's text and place, and `zbarimg` reads the barcode back.
@Suite(
    "Preview: rendered by headless Chromium", .serialized,
    .enabled(if: PreviewTestSupport.browserTools, "needs chromium and zbarimg (scripts/install-deps installs them)"))
struct PreviewChromiumTests {
    typealias S = PreviewTestSupport

    static func barcodePass(_ format: String, _ message: String) -> String {
        S.pass(
            style: "generic",
            top: """
                "backgroundColor": "rgb(20, 60, 120)", "foregroundColor": "rgb(255, 255, 255)",
                "barcodes": [{"format": "\(format)", "message": "\(message)", "messageEncoding": "iso-8859-1", "altText": "\(message)"}]
                """,
            fields: """
                "headerFields": [{"key": "h", "label": "LEVEL", "value": "Gold"}],
                "primaryFields": [{"key": "name", "label": "MEMBER", "value": "Ada Lovelace"}],
                "secondaryFields": [{"key": "s", "label": "SINCE", "value": "2019"}]
                """)
    }

    @Test(
        "QR, Code128 and EAN-13 decode with zbarimg to the pass's message",
        arguments: [
            ("PKBarcodeFormatQR", "PMC-1000-0001"), ("PKBarcodeFormatCode128", "TICKET-0042"),
            ("PKBarcodeFormatEAN13", "2000100000014"),
        ])
    func barcodeDecodes(format: String, message: String) throws {
        let doc = try PassPreview.document([S.source(Self.barcodePass(format, message))])
        let (_, path) = try S.screenshot(doc)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try S.decode(path) == [message])
    }

    @Test("the background colour fills most of the card; fields are laid out where Wallet puts them")
    func colourAndPlaces() throws {
        let doc = try PassPreview.document([S.source(Self.barcodePass("PKBarcodeFormatQR", "M-1"))])
        let (pixels, path) = try S.screenshot(doc)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(pixels.width == doc.width * 3)
        // The card sits at (20, 20) CSS px, 340 wide and 440 tall.
        var matching = 0
        var total = 0
        for y in stride(from: 60, to: 1380, by: 6) {
            for x in stride(from: 60, to: 1080, by: 6) {
                let p = pixels.pixel(x, y)
                total += 1
                if abs(Int(p.r) - 20) + abs(Int(p.g) - 60) + abs(Int(p.b) - 120) < 24 { matching += 1 }
            }
        }
        #expect(Double(matching) / Double(total) > 0.5)
        let boxes = try S.layout(doc)
        let header = try #require(boxes["headerFields/h"])
        let primary = try #require(boxes["primaryFields/name"])
        let secondary = try #require(boxes["secondaryFields/s"])
        let barcode = try #require(boxes["barcode"])
        #expect(
            header.text.contains("Gold") && primary.text.contains("Ada Lovelace") && secondary.text.contains("2019"))
        #expect(header.y < 70 && header.x > 200)  // top right
        #expect(header.y < primary.y && primary.y < secondary.y && secondary.y < barcode.y)
        #expect(barcode.y + barcode.h <= 460)  // inside the card
    }

    @Test(
        "shipped templates: background or artwork fills the pass, barcode decodes",
        arguments: ["loyalty", "status", "event", "designer-club.pkpasstemplate"])
    func shippedTemplates(name: String) throws {
        let source = try #require(try PreviewSource.load(path: PackagePaths.template(name)).first)
        let doc = try PassPreview.document([source])
        let (pixels, path) = try S.screenshot(doc)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let card = try PassCard(source, options: PreviewOptions())
        if card.style.isPoster {
            // The artwork's lower half (below the header darkening) is what the poster shows there.
            let slot = card.images.has("artwork") ? "artwork" : "background"
            guard let art = card.images.averageColor(slot, top: 0.5, bottom: 0.8) else {
                Issue.record("\(name) has no readable \(slot).png")
                return
            }
            let artHeight = Double(PassCard.width * 448 / 358)
            let y0 = Int((20 + artHeight * 0.5) * 3)
            let y1 = Int((20 + artHeight * 0.8) * 3)
            var sums = (0.0, 0.0, 0.0)
            var n = 0.0
            for y in stride(from: y0, to: y1, by: 4) {
                for x in stride(from: 60, to: 1080, by: 4) {
                    let p = pixels.pixel(x, y)
                    sums.0 += Double(p.r)
                    sums.1 += Double(p.g)
                    sums.2 += Double(p.b)
                    n += 1
                }
            }
            let distance =
                abs(sums.0 / n - Double(art.r)) + abs(sums.1 / n - Double(art.g)) + abs(sums.2 / n - Double(art.b))
            #expect(distance < 40, "the artwork is drawn across the poster")
        } else {
            let bg = card.colors.background
            var matching = 0
            var total = 0
            for y in stride(from: 60, to: 1380, by: 6) {
                for x in stride(from: 60, to: 1080, by: 6) {
                    let p = pixels.pixel(x, y)
                    total += 1
                    if abs(Int(p.r) - Int(bg.r)) + abs(Int(p.g) - Int(bg.g)) + abs(Int(p.b) - Int(bg.b)) < 30 {
                        matching += 1
                    }
                }
            }
            #expect(Double(matching) / Double(total) > 0.3 || card.images.has("background"))
        }
        let barcode = try #require(source.pass.barcodes?.first)
        if [BarcodeFormat.qr, .code128, .ean13].contains(barcode.format) {
            #expect(try S.decode(path).contains(barcode.message ?? ""))
        }
    }

    @Test("the back's height is measured, so every back field is in the PNG")
    func backMeasured() throws {
        let long = (1...30).map {
            "{\"key\": \"b\($0)\", \"label\": \"LINE \($0)\", \"value\": \"Some text for line \($0).\"}"
        }
        let json = S.pass(
            fields:
                "\"primaryFields\": [{\"key\": \"p\", \"value\": 1}], \"backFields\": [\(long.joined(separator: ","))]")
        let doc = try PassPreview.document([S.source(json)], options: PreviewOptions(showBack: true))
        let before = Self.temporaryFolders()
        let (pixels, path) = try S.screenshot(doc)
        #expect(Self.temporaryFolders().subtracting(before).isEmpty, "the page and profile folders are removed")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let boxes = try S.layout(doc)
        let last = try #require(boxes["backFields/b30"])
        #expect(Double(pixels.height) >= (last.y + last.h) * 3)
    }

    @Test("the page's Content-Security-Policy stops a script that got into it; the preview still draws")
    func policyStopsScripts() throws {
        var doc = try PassPreview.document([S.source(Self.barcodePass("PKBarcodeFormatQR", "M-1"))])
        doc.html = doc.html.replacingOccurrences(
            of: "</body>",
            with: "<script>document.body.setAttribute('data-ran','script')</script>"
                + "<img src=\"x\" onerror=\"document.body.setAttribute('data-ran','handler')\"></body>")
        let dom = try S.chromium!.dumpDOM(doc)
        #expect(dom.contains("data-key=\"name\""))
        let body = try #require(dom.range(of: "<body")).upperBound
        let bodyTag = dom[body...].prefix { $0 != ">" }
        #expect(!bodyTag.contains("data-ran"), "a script ran in the preview page: <body\(bodyTag)>")
    }

    /// Passes whose front has more text than room: long logo text beside a wide logo, long header values, a full
    /// row of long values and labels, a boarding pass's long codes, a generic pass with a thumbnail.
    static var crowdedPasses: [PreviewSource] {
        get throws {
            let logo = try #require(
                FileManager.default.contents(atPath: PackagePaths.template("loyalty") + "/logo@3x.png"))
            let thumbnail = try #require(
                FileManager.default.contents(atPath: PackagePaths.template("event") + "/thumbnail@3x.png"))
            let store = S.pass(
                top: "\"logoText\": \"Bean There Coffee Rewards Club\"",
                fields: """
                    "headerFields": [{"key": "beans", "label": "BEANS COLLECTED THIS YEAR", "value": "12,500 beans and counting"}],
                    "primaryFields": [{"key": "drinks", "label": "FREE DRINKS", "value": "Two large lattes"}],
                    "secondaryFields": [{"key": "m", "label": "MEMBER", "value": "Maximilian Alexander von Hohenberg"},
                                        {"key": "s", "label": "MEMBER SINCE THE GRAND REOPENING", "value": "2019"}],
                    "auxiliaryFields": [{"key": "f", "label": "FAVOURITE", "value": "Double ristretto oat flat white"},
                                        {"key": "t", "label": "TIER", "value": "Platinum Plus"}]
                    """)
            let boarding = S.pass(
                style: "boardingPass",
                fields: """
                    "transitType": "PKTransitTypeTrain",
                    "primaryFields": [{"key": "from", "label": "BERLIN HAUPTBAHNHOF", "value": "Berlin Hbf (tief)"},
                                      {"key": "to", "label": "MÜNCHEN", "value": "München Hbf"}],
                    "auxiliaryFields": [{"key": "a", "label": "CARRIAGE", "value": "12"}, {"key": "b", "label": "SEAT", "value": "45"},
                                        {"key": "c", "label": "CLASS", "value": "First"}, {"key": "d", "label": "PLATFORM", "value": "7"},
                                        {"key": "e", "label": "RESERVATION", "value": "Window, quiet zone"}]
                    """)
            let generic = S.pass(
                style: "generic",
                top: "\"logoText\": \"Gym\"",
                fields: """
                    "primaryFields": [{"key": "n", "label": "MEMBER", "value": "Wolfeschlegelsteinhausenbergerdorff"}],
                    "secondaryFields": [{"key": "a", "label": "PLAN", "value": "Unlimited classes"}, {"key": "b", "label": "HOME CLUB", "value": "Kreuzberg"}],
                    "auxiliaryFields": [{"key": "c", "label": "VALID UNTIL", "value": "2027-12-31T00:00:00Z", "dateStyle": "PKDateStyleFull"}]
                    """)
            return [
                try S.source(store, files: ["logo@3x.png": [UInt8](logo)]),
                try S.source(boarding),
                try S.source(generic, files: ["thumbnail@3x.png": [UInt8](thumbnail), "logo@3x.png": [UInt8](logo)]),
            ]
        }
    }

    @Test(
        "Chromium agrees with the layout: every cut text fits its box and was too long for it; nothing else overflows")
    func layoutAgreesWithBrowser() throws {
        var doc = try PassPreview.document(try Self.crowdedPasses)
        doc.html = PreviewPage.probe(
            doc.html,
            script: """
                const out = [];
                for (const e of document.querySelectorAll('.front .label, .front .value, .front .logotext')) {
                  if (getComputedStyle(e).whiteSpace !== 'nowrap') continue;
                  const range = document.createRange();
                  range.selectNodeContents(e);
                  const shown = range.getBoundingClientRect().width;
                  let full = shown;
                  if (e.title) {
                    const kept = e.textContent;
                    e.textContent = e.title;
                    range.selectNodeContents(e);
                    full = range.getBoundingClientRect().width;
                    e.textContent = kept;
                  }
                  out.push([e.textContent, e.getBoundingClientRect().width, shown, full, e.title ? 1 : 0]);
                }
                document.body.setAttribute('data-fit', JSON.stringify(out));
                """)
        let dom = try S.chromium!.dumpDOM(doc)
        let start = try #require(dom.range(of: "data-fit=\""))
        let attribute = dom[start.upperBound...].prefix { $0 != "\"" }
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
        let lines = try #require(try JSONSerialization.jsonObject(with: Data(attribute.utf8)) as? [[Any]])
        var cut = 0
        for line in lines {
            let text = line[0] as? String ?? ""
            let (box, shown, full) = (line[1] as? Double ?? 0, line[2] as? Double ?? 0, line[3] as? Double ?? 0)
            #expect(shown <= box + 0.25, "\(text): \(shown) px of text in a \(box) px box")
            if line[4] as? Int == 1 {
                cut += 1
                #expect(
                    text.hasSuffix("\u{2026}") && full > box,
                    "\(text) was cut, but its whole text is \(full) px in \(box)")
            }
        }
        #expect(cut >= 8, "\(lines)")
        #expect(lines.count > 30)
    }

    /// The preview's temporary folders that exist now.
    static func temporaryFolders() -> Set<String> {
        let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        return Set(names.filter { $0.hasPrefix("passmint-preview-") && !$0.hasSuffix(".png") })
    }
}
