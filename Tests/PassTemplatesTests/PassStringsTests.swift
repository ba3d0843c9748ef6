import Testing
@testable import PassTemplates

@Suite("pass.strings reading and writing")
struct PassStringsTests {
    static let sample = """
        /* Store card */
        "remaining_balance" = "Balance restante";
        // line comment
        "deal" = "Oferta del día";
        """

    func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
        var out: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
        for unit in text.utf16 {
            let hi = UInt8(unit >> 8), lo = UInt8(unit & 0xFF)
            out += bigEndian ? [hi, lo] : [lo, hi]
        }
        return out
    }

    func pairs(_ entries: [(key: String, value: String)]) -> [String] {
        entries.map { "\($0.key)=\($0.value)" }
    }

    @Test("UTF-8 without BOM, with BOM, UTF-16LE and UTF-16BE with BOM all read the same")
    func encodings() throws {
        let expected = ["remaining_balance=Balance restante", "deal=Oferta del día"]
        let inputs: [[UInt8]] = [
            Array(Self.sample.utf8),
            [0xEF, 0xBB, 0xBF] + Array(Self.sample.utf8),
            utf16(Self.sample, bigEndian: false),
            utf16(Self.sample, bigEndian: true),
        ]
        for bytes in inputs {
            #expect(pairs(try PassStrings.parse(bytes, file: "es.lproj/pass.strings")) == expected)
        }
    }

    @Test("UTF-16 without a byte order mark is refused with a hint")
    func bomlessUTF16() {
        let bytes = Array(utf16(Self.sample, bigEndian: false).dropFirst(2))
        let error = #expect(throws: TemplateError.self) { try PassStrings.parse(bytes, file: "x/pass.strings") }
        #expect(error?.description.contains("byte order mark") == true)
        #expect(error?.description.hasPrefix("x/pass.strings:1:") == true)
    }

    @Test("bytes that are not UTF-8 are refused")
    func notUTF8() {
        #expect(throws: TemplateError.self) { try PassStrings.parse([0x22, 0xC3, 0x28, 0x22], file: "p") }
    }

    @Test("escapes: quote, backslash, newline, tab, \\u including surrogate pairs")
    func escapes() throws {
        let text = #""a\"b" = "line1\nline2\ttab \\ back \u00e9 \ud83d\ude00";"#
        let entries = try PassStrings.parse(Array(text.utf8), file: "p")
        #expect(entries.count == 1)
        #expect(entries[0].key == "a\"b")
        #expect(entries[0].value == "line1\nline2\ttab \\ back é 😀")
    }

    @Test("unquoted words and values spanning lines are accepted")
    func unquotedAndMultiline() throws {
        let text = "greeting = \"Hello\nworld\";\nkey2=value_2;"
        #expect(pairs(try PassStrings.parse(Array(text.utf8), file: "p")) == ["greeting=Hello\nworld", "key2=value_2"])
    }

    @Test(
        "errors carry the file and the line",
        arguments: [
            ("\"a\" = \"b\";\n\"c\" \"d\";", 2, "expected '='"),
            ("\"a\" = \"b\"\n", 1, "expected ';'"),
            ("\n\n\"a\" = \"b;\n", 3, "never closed"),
            ("\"a\" = \"\\q\";", 1, "unknown escape"),
            ("/* open\n\n", 1, "comment"),
            ("\"a\" = ;", 1, "value"),
        ])
    func errors(text: String, line: Int, fragment: String) {
        let error = #expect(throws: TemplateError.self) {
            try PassStrings.parse(Array(text.utf8), file: "en.lproj/pass.strings")
        }
        guard case .invalidStrings(let file, let l, let message)? = error else {
            Issue.record("expected invalidStrings, got \(String(describing: error))")
            return
        }
        #expect(file == "en.lproj/pass.strings")
        #expect(l == line)
        #expect(message.contains(fragment), "\(message)")
    }

    @Test("serialize writes UTF-16LE with a BOM, in order, escaped, and reads back")
    func serializeRoundTrip() throws {
        let entries: [(key: String, value: String)] = [
            ("zeta", "last \"quoted\" \\ path\nnew line"), ("alpha", "Überweisung 😀"), ("ctl", "bell\u{07}"),
        ]
        let bytes = PassStrings.serialize(entries)
        #expect(Array(bytes.prefix(2)) == [0xFF, 0xFE])
        #expect(bytes.count % 2 == 0)
        // First code unit after the BOM is '"' little-endian.
        #expect(Array(bytes[2..<4]) == [0x22, 0x00])
        let back = try PassStrings.parse(bytes, file: "p")
        #expect(pairs(back) == pairs(entries))
        let text = try PassStrings.decode(bytes, file: "p")
        #expect(text.hasPrefix("\"zeta\" = \"last \\\"quoted\\\" \\\\ path\\nnew line\";\n"))
        #expect(text.contains("\\U0007"))
    }

    @Test("an empty file has no entries")
    func empty() throws {
        #expect(try PassStrings.parse([], file: "p").isEmpty)
        #expect(try PassStrings.parse([0xFF, 0xFE], file: "p").isEmpty)
    }
}
