import Foundation
import Testing
import PassModel
@testable import PassMint
@testable import PassPreview
import PassMintTestSupport

/// Shared helpers of the preview and lint tests: passes built from JSON text, the tools the browser tests need,
/// and reading back what Chromium drew.
enum PreviewTestSupport {
    static let chromium: Chromium? = try? Chromium.find()
    static let zbarimg: String? = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    /// Both browser and decoder are installed (`scripts/install-deps` installs them).
    static var browserTools: Bool { chromium != nil && zbarimg != nil }

    /// A pass from pass.json text and optional files.
    static func source(_ json: String, files: [String: [UInt8]] = [:], name: String = "test.pkpass") throws
        -> PreviewSource
    {
        try PreviewSource(name: name, passJSON: JSONReader.parse(json).value, files: files)
    }

    /// A minimal pass of `style` with the given extra top-level JSON members and style dictionary members.
    static func pass(style: String = "storeCard", top: String = "", fields: String) -> String {
        """
        {"formatVersion": 1, "passTypeIdentifier": "pass.test.preview", "serialNumber": "S1", "teamIdentifier": "T",
         "organizationName": "Preview Test", "description": "a test pass", \(top.isEmpty ? "" : top + ",")
         "\(style)": {\(fields)}}
        """
    }

    /// The messages `zbarimg` reads in a PNG.
    static func decode(_ png: String) throws -> [String] {
        try CLI.run(zbarimg!, ["-q", "--raw", png]).stdout.split(separator: "\n").map(String.init)
    }

    /// Screenshots `document` into a temporary PNG and returns its pixels and path (removed by the caller).
    static func screenshot(_ document: PreviewDocument) throws -> (pixels: PNGPixels, path: String) {
        let path = NSTemporaryDirectory() + "passmint-preview-test-\(UUID().uuidString).png"
        try chromium!.screenshot(document, to: path)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        return (try #require(PNGPixels(bytes)), path)
    }

    /// Where each `[data-key]` element (and `.barcode`) was laid out, in CSS pixels: "group/key" → box.
    static func layout(_ document: PreviewDocument) throws -> [String: (
        x: Double, y: Double, w: Double, h: Double, text: String
    )] {
        var probe = document
        // The page's policy allows no script; the probe is allowed by its nonce.
        probe.html = PreviewPage.probe(
            probe.html,
            script: """
                for (const e of document.querySelectorAll('[data-key],.barcode')) { const r = e.getBoundingClientRect();
                e.setAttribute('data-box', [r.x, r.y, r.width, r.height].join(',')); }
                """)
        let dom = try chromium!.dumpDOM(probe)
        var out: [String: (Double, Double, Double, Double, String)] = [:]
        var rest = Substring(dom)
        while let box = rest.range(of: "data-box=\"") {
            let tagStart = rest[..<box.lowerBound].lastIndex(of: "<")!
            let tag = rest[tagStart..<box.lowerBound]
            let numbers = rest[box.upperBound...].prefix { $0 != "\"" }.split(separator: ",").compactMap { Double($0) }
            func attribute(_ name: String) -> String? {
                guard let r = tag.range(of: name + "=\"") else { return nil }
                return String(tag[r.upperBound...].prefix { $0 != "\"" })
            }
            let key =
                tag.contains("class=\"barcode\"")
                ? "barcode" : "\(attribute("data-group") ?? "")/\(attribute("data-key") ?? "")"
            let after = rest[box.upperBound...]
            let text = after.drop { $0 != ">" }.dropFirst().prefix(400)
            let plain = String(text).split(separator: "<").map {
                $0.split(separator: ">", maxSplits: 1).last.map(String.init) ?? ""
            }
            .joined(separator: " ")
            if numbers.count == 4 { out[key] = (numbers[0], numbers[1], numbers[2], numbers[3], plain) }
            rest = after
        }
        return out
    }
}
