import Foundation
import Testing
import PassMintTestSupport
import PassModel
@testable import PassMint
@testable import PassPreview

@Suite("Preview: HTML of each style")
struct PreviewHTMLTests {
    typealias S = PreviewTestSupport

    @Test("store card: fields in Wallet's groups and counts, colours, formatted values, barcode")
    func storeCard() throws {
        let json = S.pass(
            top: """
                "backgroundColor": "rgb(92, 56, 36)", "foregroundColor": "rgb(255, 255, 255)", "labelColor": "rgb(231, 190, 140)",
                "barcodes": [{"format": "PKBarcodeFormatQR", "message": "M-1", "messageEncoding": "iso-8859-1", "altText": "M-1"}]
                """,
            fields: """
                "headerFields": [{"key": "tier", "label": "TIER", "value": "Gold"}],
                "primaryFields": [{"key": "points", "label": "POINTS", "value": 1250, "numberStyle": "PKNumberStyleDecimal"}],
                "secondaryFields": [{"key": "a", "value": "A"}, {"key": "b", "value": "B"}, {"key": "c", "value": "C"}],
                "auxiliaryFields": [{"key": "bal", "label": "BALANCE", "value": 12.5, "currencyCode": "USD"},
                                    {"key": "hidden", "value": "never shown"}],
                "backFields": [{"key": "terms", "label": "TERMS", "value": "See https://example.com"}]
                """)
        let doc = try PassPreview.document([S.source(json)], options: PreviewOptions(showBack: true))
        #expect(doc.html.contains("data-style=\"storeCard\""))
        #expect(doc.html.contains("background-color:rgb(92, 56, 36)"))
        #expect(doc.html.contains("1,250"))
        #expect(doc.html.contains("$12.50"))
        #expect(doc.html.contains("data-key=\"bal\""))
        #expect(!doc.html.contains("never shown"))  // four places shared by secondary and auxiliary
        #expect(doc.notes.contains { $0.contains("hidden") })
        #expect(doc.html.contains("<a href=\"https://example.com\">"))
        #expect(doc.html.contains("data-format=\"PKBarcodeFormatQR\""))
        #expect(!doc.html.contains("src=\"http"))  // self-contained: nothing loaded from the network
    }

    @Test("coupon: the primary field over the strip, perforated edge, Code128 drawn")
    func coupon() throws {
        let json = S.pass(
            style: "coupon",
            top: """
                "barcodes": [{"format": "PKBarcodeFormatCode128", "message": "C-25", "messageEncoding": "iso-8859-1"}]
                """,
            fields: "\"primaryFields\": [{\"key\": \"offer\", \"label\": \"DOG FOOD\", \"value\": \"20% off\"}]")
        let doc = try PassPreview.document([S.source(json)])
        #expect(doc.html.contains("class=\"pass front coupon\""))
        #expect(doc.html.contains("<div class=\"strip nostrip\"><div class=\"field primary\""))
        #expect(doc.html.contains("data-format=\"PKBarcodeFormatCode128\""))
    }

    @Test("boarding pass: transit icon between origin and destination, two primaries at most")
    func boardingPass() throws {
        let json = S.pass(
            style: "boardingPass",
            fields: """
                "transitType": "PKTransitTypeTrain",
                "primaryFields": [{"key": "from", "label": "BERLIN", "value": "BER"}, {"key": "to", "label": "MUNICH", "value": "MUC"},
                                  {"key": "third", "value": "XXX"}]
                """)
        let doc = try PassPreview.document([S.source(json)])
        #expect(doc.html.contains("data-transit=\"PKTransitTypeTrain\""))
        #expect(doc.html.contains(">MUC<"))
        #expect(!doc.html.contains("data-key=\"third\""))
    }

    @Test("dates follow dateStyle/timeStyle and the locale; strings come from the locale's pass.strings")
    func localeAndDates() throws {
        let json = S.pass(
            style: "generic",
            fields: """
                "primaryFields": [{"key": "name", "label": "member_label", "value": "Ada"}],
                "secondaryFields": [{"key": "since", "label": "SINCE", "value": "2019-03-14T10:00:00Z",
                                     "dateStyle": "PKDateStyleLong", "timeStyle": "PKDateStyleNone", "ignoresTimeZone": true}]
                """)
        let strings = Array("\"member_label\" = \"Mitglied\";\n".utf8)
        let source = try S.source(json, files: ["de.lproj/pass.strings": strings])
        let german = try PassPreview.document([source], options: PreviewOptions(locale: "de"))
        #expect(german.html.contains("14. März 2019"))
        #expect(german.html.contains(">Mitglied<"))
        let english = try PassPreview.document([source], options: PreviewOptions(locale: "en_US"))
        #expect(english.html.contains("March 14, 2019"))
        #expect(english.html.contains(">member_label<"))
    }

    @Test("poster generic: artwork, large title for an unlabeled first primary, footer, automatic colours")
    func posterGeneric() throws {
        let source = try #require(
            try PreviewSource.load(path: PackagePaths.template("designer-club.pkpasstemplate")).first)
        let doc = try PassPreview.document([source])
        #expect(doc.html.contains("data-style=\"posterGeneric\""))
        #expect(doc.html.contains("data-image=\"artwork\""))
        #expect(doc.html.contains("posterprimary title"))
        #expect(doc.html.contains("data-group=\"footerFields\""))
        #expect(doc.html.contains("class=\"action\"") == (source.pass.featuredActions?.isEmpty == false))
        let automatic = try S.source(
            S.pass(
                style: "posterGeneric", top: "\"useAutomaticColors\": true",
                fields: "\"primaryFields\": [{\"key\": \"n\", \"value\": \"X\"}]"),
            files: ["artwork.png": try #require(source.files["artwork.png"])])
        let colors = PassColors(
            automatic.pass, style: .posterGeneric, images: PassImages(files: automatic.files, localizedFolder: nil))
        #expect(colors.automatic)
        #expect(colors.foreground == .white)  // the club artwork is dark
    }

    @Test("a poster event ticket without its semantics is drawn as the classic ticket, with a note")
    func posterFallback() throws {
        let json = S.pass(
            style: "eventTicket",
            top:
                "\"preferredStyleSchemes\": [\"posterEventTicket\", \"eventTicket\"], \"semantics\": {\"eventName\": \"Gig\"}",
            fields: "\"primaryFields\": [{\"key\": \"e\", \"value\": \"Gig\"}]")
        let doc = try PassPreview.document([S.source(json)])
        #expect(doc.html.contains("data-style=\"eventTicket\""))
        #expect(doc.notes.contains { $0.contains("venueName") })
    }

    @Test("featured actions are drawn under the pass, at most two")
    func featuredActions() throws {
        let json = S.pass(
            top: """
                "featuredActions": [{"identifier": "a", "type": "order", "url": "https://e.example/a"},
                                    {"identifier": "b", "type": "call", "url": "tel:+15550100"},
                                    {"identifier": "c", "type": "shop", "url": "https://e.example/c"}]
                """, fields: "\"primaryFields\": [{\"key\": \"p\", \"value\": 1}]")
        let doc = try PassPreview.document([S.source(json)])
        #expect(doc.html.contains("data-type=\"order\""))
        #expect(doc.html.contains(">Call<"))
        #expect(!doc.html.contains("data-type=\"shop\""))
    }

    @Test("a barcode that cannot be drawn is a marked gap with the reason, and a note")
    func brokenBarcode() throws {
        let json = S.pass(
            top: """
                "barcodes": [{"format": "PKBarcodeFormatEAN13", "message": "123", "messageEncoding": "iso-8859-1"}]
                """, fields: "\"primaryFields\": [{\"key\": \"p\", \"value\": 1}]")
        let doc = try PassPreview.document([S.source(json)])
        #expect(doc.html.contains("class=\"barcode broken\""))
        #expect(doc.notes.contains { $0.contains("barcodes[0]") && $0.contains("13 digits") })
    }

    @Test("a pass with no style is a typed error naming the file")
    func noStyle() throws {
        let source = try S.source("{\"formatVersion\": 1}", name: "empty.pkpass")
        #expect(throws: PreviewError.self) { try PassPreview.document([source]) }
    }
}
