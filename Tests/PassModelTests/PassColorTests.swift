import Testing

@testable import PassModel

@Suite("PassColor")
struct PassColorTests {
    @Test(
        "reads rgb() with any spacing, #rrggbb and #rgb",
        arguments: [
            ("rgb(60, 65, 76)", 60, 65, 76), ("rgb(76,163,213)", 76, 163, 213), (" rgb( 0 ,0, 255 ) ", 0, 0, 255),
            ("#12345a", 0x12, 0x34, 0x5A), ("#FFF", 255, 255, 255), ("#0a0", 0, 0xAA, 0),
            ("RGB(1,\t2,\n3)", 1, 2, 3), ("rgb(007, 08, 255)", 7, 8, 255),
        ])
    func parses(text: String, r: Int, g: Int, b: Int) throws {
        let c = try #require(PassColor.parse(text))
        #expect([Int(c.r), Int(c.g), Int(c.b)] == [r, g, b])
    }

    @Test(
        "rejects what is not a colour",
        arguments: [
            "#12345", "#12345g", "rgb(256, 0, 0)", "rgb(1, 2)", "rgba(1, 2, 3, 0.5)", "red", "", "rgb(-1, 2, 3)",
            "rgb(1.5, 2, 3)", "rgb(, 2, 3)", "rgb(1, 2, 3, 4)", "rgb(1, 2, )", "rgb(1 2, 3, 4)", "rgb(1, 2, 3",
            "rgb 1, 2, 3)", "rgb(1, 2, 0255)", "rgb(１, 2, 3)", "rgb()",
        ])
    func rejects(text: String) {
        #expect(PassColor.parse(text) == nil)
    }

    @Test("formats as rgb(r, g, b); only lower-case rgb() counts as strict")
    func format() {
        #expect(PassColor.format(r: 1, g: 22, b: 255) == "rgb(1, 22, 255)")
        #expect(PassColor.isStrict("rgb(1,22,255)"))
        #expect(!PassColor.isStrict("#0116ff"))
        #expect(!PassColor.isStrict("RGB(1, 2, 3)"))
    }

    @Test("PassColorValue keeps text it cannot parse")
    func value() {
        #expect(PassColorValue(parsing: "#102030") == .rgb(red: 16, green: 32, blue: 48))
        #expect(PassColorValue(parsing: "#102030").description == "rgb(16, 32, 48)")
        #expect(PassColorValue(parsing: "teal") == .unparsed("teal"))
        #expect(PassColorValue(parsing: "teal").description == "teal")
        #expect(PassColorValue(parsing: "teal").components == nil)
    }
}
