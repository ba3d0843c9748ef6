import Foundation
import Testing

@testable import PassSigning

@Suite("Manifest")
struct ManifestTests {
    @Test("SHA-1 is lowercase hex of the exact bytes")
    func sha1() {
        #expect(Manifest.sha1Hex(Array("abc".utf8)) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(Manifest.sha1Hex([]) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    }

    @Test("keys are sorted by bytes; manifest.json, signature and junk are left out")
    func buildSortsAndFilters() throws {
        let files: [(path: String, sha1: String)] = [
            ("pass.json", "1111"), ("icon.png", "2222"), ("en.lproj/pass.strings", "3333"),
            ("Icon.png", "4444"), ("manifest.json", "5555"), ("signature", "6666"), (".DS_Store", "7777"),
            ("__MACOSX/._icon.png", "8888"), ("en.lproj/Thumbs.db", "9999"), ("./logo.png", "aaaa"),
        ]
        let bytes = Manifest.build(files)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: String])
        #expect(
            object == [
                "pass.json": "1111", "icon.png": "2222", "en.lproj/pass.strings": "3333",
                "Icon.png": "4444", "logo.png": "aaaa",
            ])
        let text = String(decoding: bytes, as: UTF8.self)
        let order = ["Icon.png", "en.lproj/pass.strings", "icon.png", "logo.png", "pass.json"].map {
            text.range(of: "\"\($0)\"")!.lowerBound
        }
        #expect(order == order.sorted())
        #expect(!text.contains("\\/"))
        #expect(Manifest.build(files) == bytes)
        #expect(Manifest.build(files.reversed()) == bytes)
    }

    @Test("paths with quotes and control characters stay valid JSON")
    func escaping() throws {
        let bytes = Manifest.build([("we\"ird\\name\n.png", "abcd")])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: String])
        #expect(object == ["we\"ird\\name\n.png": "abcd"])
        #expect(Manifest.build([]) == Array("{}".utf8))
    }

    @Test(
        "junk detection",
        arguments: [
            (".DS_Store", true), ("en.lproj/.DS_Store", true), ("__MACOSX/icon.png", true), ("Thumbs.db", true),
            ("._icon.png", true), ("icon.png", false), ("en.lproj/pass.strings", false), ("MACOSX.png", false),
            ("a/__MACOSX/b.png", true), ("__MACOSX", true), ("en.lproj/._x", true), ("._", true), ("desktop.ini", true),
            ("x/desktop.ini/", true), ("__MACOSXY/icon.png", false), ("icon._png", false), ("a//b.png", false),
            ("", false),
            (".DS_Store.png", false), ("x.DS_Store", false),
        ])
    func junk(path: String, expected: Bool) {
        #expect(Manifest.isJunk(path) == expected)
    }

    @Test("prepared entries merged with a pass's own give what build gives, whatever the own files are")
    func prepared() {
        let shared: [(path: String, sha1: String)] = [
            ("icon.png", "1"), ("logo@2x.png", "2"), ("en.lproj/pass.strings", "3"), ("strip.png", "4"),
            ("./thumbnail.png", "5"), (".DS_Store", "6"), ("Zeta.png", "7"), ("é.png", "8"), ("icon.png", "9"),
        ]
        let prepared = Manifest.Prepared(shared)
        let owns: [[(path: String, sha1: String)]] = [
            [], [("pass.json", "a")], [("pass.json", "a"), ("de.lproj/pass.strings", "b"), ("thumbnail@2x.png", "c")],
            [("pass.json", "a"), ("icon.png", "replaced by the shared one")], [("./pass.json", "a")],
            [("pass.json", "a"), ("pass.json", "b")], [("manifest.json", "m"), ("signature", "s"), ("a", "0")],
            [("00.png", "first"), ("ü.png", "last")], [("thumbnail.png", "x")],
        ]
        for own in owns {
            #expect(prepared.build(adding: own) == Manifest.build(own + shared), "\(own)")
        }
        #expect(Manifest.Prepared([]).build(adding: []) == Manifest.build([]))
    }
}
