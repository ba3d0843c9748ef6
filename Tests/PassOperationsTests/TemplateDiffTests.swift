import Testing
@testable import PassOperations

@Suite("TemplateDiff: what a new template version changes")
struct TemplateDiffTests {
    @Test("files added, removed and changed; pass.json keys old → new, arrays by index, numbers as JSON")
    func changes() {
        let old: [String: [UInt8]] = [
            "pass.json": Array(
                #"{"backgroundColor": "rgb(1, 2, 3)", "barcodes": [{"format": "PKBarcodeFormatQR"}], "n": 1}"#.utf8),
            "logo.png": [1, 2],
            "strip.png": [3],
        ]
        let new: [String: [UInt8]] = [
            "pass.json": Array(
                #"{"backgroundColor": "rgb(9, 9, 9)", "barcodes": [{"format": "PKBarcodeFormatAztec"}], "n": 2, "x": true}"#
                    .utf8),
            "logo.png": [1, 2],
            "icon.png": [4],
        ]
        let diff = TemplateDiff(old: old, new: new)
        #expect(diff.files == [.added("icon.png"), .changed("pass.json"), .removed("strip.png")])
        #expect(
            diff.keys.map { "\($0.key): \($0.old ?? "-") → \($0.new ?? "-")" } == [
                "backgroundColor: rgb(1, 2, 3) → rgb(9, 9, 9)",
                "barcodes[0].format: PKBarcodeFormatQR → PKBarcodeFormatAztec", "n: 1 → 2", "x: - → true",
            ])
    }

    @Test("no earlier version: every file is added; identical versions: empty; JSON that does not parse: file only")
    func edges() {
        let files: [String: [UInt8]] = ["pass.json": Array("{}".utf8)]
        #expect(TemplateDiff(old: nil, new: files).files == [.added("pass.json")])
        #expect(TemplateDiff(old: files, new: files).isEmpty)
        let lenient = TemplateDiff(old: files, new: ["pass.json": Array("{\"a\": ".utf8)])
        #expect(lenient.files == [.changed("pass.json")] && lenient.keys.isEmpty)
    }
}
