import Testing

@testable import PassModel

@Suite("JSONWriter")
struct JSONWriterTests {
    @Test("exact bytes: keys in UTF-8 byte order at every level, escapes only where JSON needs them")
    func exactOutput() {
        let value: JSONValue = [
            "b": ["z": 1, "a": .double(2.5), "Z": .null],
            "a": .string("plain text, no escapes: é 😀"),
            "é": .bool(true),
            "B": .array([
                .string("quote \" back \\ slash"), .string("line\nbreak\ttab\r\u{08}\u{0C}\u{01}\u{1F}"), .integer(-7),
            ]),
            "e": .array([]),
            "o": .object([:]),
        ]
        let expected = """
            {
              "B": [
                "quote \\" back \\\\ slash",
                "line\\nbreak\\ttab\\r\\b\\f\\u0001\\u001f",
                -7
              ],
              "a": "plain text, no escapes: é 😀",
              "b": {
                "Z": null,
                "a": 2.5,
                "z": 1
              },
              "e": [],
              "o": {},
              "é": true
            }

            """
        #expect(JSONWriter.string(value) == expected)
        #expect(JSONWriter.string(["k": .string(""), "n": .double(3.0)], pretty: false) == #"{"k":"","n":3}"#)
    }
}
