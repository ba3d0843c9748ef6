import Foundation
import Testing

@testable import PassModel

@Suite("JSON reader and writer")
struct JSONReaderTests {
    @Test("strict input has no leniencies and round-trips with sorted keys")
    func strictRoundTrip() throws {
        let doc = try JSONReader.parse(#"{"b": [1, 2.5, "x\n\"y\""], "a": {"z": null, "y": true}}"#)
        #expect(doc.isStrict)
        #expect(JSONWriter.string(doc.value, pretty: false) == #"{"a":{"y":true,"z":null},"b":[1,2.5,"x\n\"y\""]}"#)
        let again = try JSONReader.parse(JSONWriter.serialize(doc.value))
        #expect(again.value == doc.value)
    }

    @Test("trailing commas and comments are accepted and reported with their position")
    func lenient() throws {
        let text = "{\n  // note\n  \"a\": [1, 2,],\n  /* block */ \"b\": 1,\n}"
        let doc = try JSONReader.parse(text)
        let kinds = doc.leniencies.map(\.kind)
        #expect(kinds.contains(.trailingComma))
        #expect(kinds.contains(.lineComment))
        #expect(kinds.contains(.blockComment))
        #expect(doc.leniencies.first { $0.kind == .lineComment }?.line == 2)
        #expect(doc.leniencies.first { $0.kind == .trailingComma && $0.path == "a" } != nil)
        #expect(doc.value == ["a": [1, 2], "b": 1])
    }

    @Test("syntax errors carry file, line and column")
    func syntaxError() {
        do {
            _ = try JSONReader.parse("{\n  \"a\": tru\n}", file: "pass.json")
            Issue.record("expected an error")
        } catch {
            #expect(error.file == "pass.json")
            #expect(error.line == 2)
            #expect(error.column == 8)
        }
    }

    @Test("unicode escapes, surrogate pairs and non-ASCII survive a round trip")
    func unicode() throws {
        let doc = try JSONReader.parse(#"["\u00e9\ud83d\ude00", "Grüße"]"#)
        #expect(doc.value == ["é😀", "Grüße"])
        #expect(try JSONReader.parse(JSONWriter.serialize(doc.value)).value == doc.value)
    }

    @Test("a value that looks like JSON stays a string when written")
    func injection() throws {
        let v: JSONValue = ["a": .string(#"","voided":true,"x":""#)]
        let reread = try JSONReader.parse(JSONWriter.serialize(v))
        #expect(reread.isStrict)
        #expect(reread.value["voided"] == nil)
        #expect(reread.value["a"]?.stringValue == #"","voided":true,"x":""#)
    }

    @Test(
        "the Apple boarding pass fixture needs the lenient reader",
        .enabled(if: PackagePaths.hasFixtures, PackagePaths.noFixtures))
    func boardingPassFixture() throws {
        let path = try #require(PackagePaths.fixture("templates/apple-BoardingPass/pass.json"))
        let data = try #require(FileManager.default.contents(atPath: path))
        let doc = try JSONReader.parse([UInt8](data), file: "pass.json")
        #expect(doc.leniencies.contains { $0.kind == .trailingComma })
        #expect(doc.value["boardingPass"]?["transitType"]?.stringValue == "PKTransitTypeAir")
    }
}
