import Foundation
import Testing

@testable import PassMint

/// `CSVReader`: RFC 4180 read as a stream, with the first physical line of every record.
@Suite("batch: CSVReader")
struct CSVReaderTests {
    /// One record as read: its line and its fields or error.
    struct Read: Equatable, CustomStringConvertible {
        let line: Int
        let fields: [String]?
        let error: String?
        var description: String { "line \(line): \(fields.map { "\($0)" } ?? "error \(error ?? "nil")")" }
    }

    /// Writes `bytes` to a fresh temporary file and returns its path (removed by `cleanup`).
    static func file(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("passmint-csvreader-\(UUID().uuidString).csv").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func cleanup(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

    /// Every record of `bytes`, in order.
    static func readAll(_ bytes: [UInt8]) throws -> [Read] {
        let path = try file(bytes)
        defer { cleanup(path) }
        let reader = try CSVReader(path: path)
        var out: [Read] = []
        while let record = try reader.nextRecord() {
            out.append(Read(line: record.line, fields: record.fields, error: record.problem?.description))
        }
        return out
    }

    static func readAll(_ text: String) throws -> [Read] { try readAll(Array(text.utf8)) }

    static func ok(_ line: Int, _ fields: [String]) -> Read { Read(line: line, fields: fields, error: nil) }

    @Test("plain LF records; the header is line 1")
    func plainLF() throws {
        #expect(
            try Self.readAll("name,points\nAda,10\nGrace,20\n") == [
                Self.ok(1, ["name", "points"]), Self.ok(2, ["Ada", "10"]), Self.ok(3, ["Grace", "20"]),
            ])
    }

    @Test("quoted fields keep commas, doubled quotes stand for one quote")
    func quotedCommasAndQuotes() throws {
        let records = try Self.readAll("a,b,c\n\"Hopper, Grace\",\"say \"\"hi\"\"\",\"\"\"\"\n\"\",x,\"\"\"a,b\"\"\"\n")
        #expect(
            records == [
                Self.ok(1, ["a", "b", "c"]),
                Self.ok(2, ["Hopper, Grace", "say \"hi\"", "\""]),
                Self.ok(3, ["", "x", "\"a,b\""]),
            ])
    }

    @Test("a newline inside quotes: the record keeps its first line, the next record counts the embedded lines")
    func embeddedNewlines() throws {
        let text =
            "name,note\n"  // 1
            + "\"Multi\nLine\nName\",x\n"  // 2-4
            + "after,y\n"  // 5
            + "z,\"one\r\ntwo\"\r\n"  // 6-7 (CRLF inside and after)
            + "last,\"\n\"\n"  // 8-9 (field is just a newline)
            + "end,w\n"  // 10
        #expect(
            try Self.readAll(text) == [
                Self.ok(1, ["name", "note"]),
                Self.ok(2, ["Multi\nLine\nName", "x"]),
                Self.ok(5, ["after", "y"]),
                Self.ok(6, ["z", "one\r\ntwo"]),
                Self.ok(8, ["last", "\n"]),
                Self.ok(10, ["end", "w"]),
            ])
    }

    @Test("a lone CR is a line break inside quotes as outside: the next record's line counts it")
    func loneCarriageReturn() throws {
        #expect(
            try Self.readAll("h,n\r\"x\ry\",1\rnext,2\r") == [
                Self.ok(1, ["h", "n"]), Self.ok(2, ["x\ry", "1"]), Self.ok(4, ["next", "2"]),
            ])
    }

    @Test("CRLF, LF and a mix of both give the same records and lines")
    func lineEndings() throws {
        let expected = [
            Self.ok(1, ["h1", "h2"]), Self.ok(2, ["a", "b"]), Self.ok(3, ["c", "d"]), Self.ok(4, ["e", "f"]),
        ]
        #expect(try Self.readAll("h1,h2\na,b\nc,d\ne,f\n") == expected)
        #expect(try Self.readAll("h1,h2\r\na,b\r\nc,d\r\ne,f\r\n") == expected)
        #expect(try Self.readAll("h1,h2\r\na,b\nc,d\r\ne,f\n") == expected)
        #expect(try Self.readAll("h1,h2\na,b\r\nc,d\ne,f") == expected)
    }

    @Test("blank lines are skipped but counted")
    func blankLines() throws {
        #expect(try Self.readAll("h\n\na\r\n\r\n\nb\n\n") == [Self.ok(1, ["h"]), Self.ok(3, ["a"]), Self.ok(6, ["b"])])
    }

    @Test("a UTF-8 BOM is stripped from the first header only")
    func byteOrderMark() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let records = try Self.readAll(bom + Array("memberName,points\nAda,10\n".utf8))
        #expect(records == [Self.ok(1, ["memberName", "points"]), Self.ok(2, ["Ada", "10"])])
        #expect(records.first?.fields?.first?.unicodeScalars.first == "m")
        // A quoted first header after the BOM.
        #expect(
            try Self.readAll(bom + Array("\"a\",b\r\n1,2\r\n".utf8)) == [
                Self.ok(1, ["a", "b"]), Self.ok(2, ["1", "2"]),
            ])
        // A BOM-like sequence later in the file is data, not stripped.
        #expect(
            try Self.readAll(Array("h\n".utf8) + bom + Array("x\n".utf8)) == [
                Self.ok(1, ["h"]), Self.ok(2, ["\u{FEFF}x"]),
            ])
        // An incomplete BOM is not skipped: the bytes stay and the header is not UTF-8.
        let partial = try Self.readAll([0xEF, 0xBB] + Array("h\nok\n".utf8))
        #expect(partial.count == 2)
        #expect(partial.first?.fields == nil)
        #expect(partial.first?.line == 1)
        #expect(partial.last == Self.ok(2, ["ok"]))
        // A file that is only a BOM has no records.
        #expect(try Self.readAll(bom) == [])
    }

    @Test("a missing final newline still yields the last record")
    func noFinalNewline() throws {
        #expect(try Self.readAll("a,b\n1,2") == [Self.ok(1, ["a", "b"]), Self.ok(2, ["1", "2"])])
        #expect(try Self.readAll("a,b\r\n\"x\ny\",2") == [Self.ok(1, ["a", "b"]), Self.ok(2, ["x\ny", "2"])])
        #expect(try Self.readAll("a,b\n1,") == [Self.ok(1, ["a", "b"]), Self.ok(2, ["1", ""])])
        #expect(try Self.readAll("") == [])
    }

    @Test("empty fields, quoted or not, anywhere in the record")
    func emptyFields() throws {
        #expect(
            try Self.readAll("a,b,c\n,,\n\"\",,\"\"\nx,,\n,y,\n") == [
                Self.ok(1, ["a", "b", "c"]),
                Self.ok(2, ["", "", ""]),
                Self.ok(3, ["", "", ""]),
                Self.ok(4, ["x", "", ""]),
                Self.ok(5, ["", "y", ""]),
            ])
    }

    @Test("invalid UTF-8 fails only its record, naming the field; later records keep their lines")
    func invalidUTF8() throws {
        var bytes = Array("name,note\n".utf8)  // 1
        bytes += Array("Ada,ok\n".utf8)  // 2
        bytes += Array("Bad,\"x\n".utf8) + [0xFF, 0xFE] + Array("\ny\"\n".utf8)  // 3-5, field 2 is bad
        bytes += Array("Grace,fine\r\n".utf8)  // 6
        bytes += [0xC3] + Array(",lone lead byte\n".utf8)  // 7, field 1 is bad
        bytes += Array("Last,é\n".utf8)  // 8
        let records = try Self.readAll(bytes)
        #expect(
            records == [
                Self.ok(1, ["name", "note"]),
                Self.ok(2, ["Ada", "ok"]),
                Read(
                    line: 3, fields: nil,
                    error: "field 2 ('note') is not valid UTF-8 (byte 0xFF at byte 3); \(Self.utf8Hint)"),
                Self.ok(6, ["Grace", "fine"]),
                Read(
                    line: 7, fields: nil,
                    error: "field 1 ('name') is not valid UTF-8 (byte 0xC3 at byte 1); \(Self.utf8Hint)"),
                Self.ok(8, ["Last", "é"]),
            ])
    }

    static let utf8Hint =
        "save the CSV as UTF-8, or read it as windows-1252 or latin1 if a spreadsheet saved it in a Western European encoding"

    @Test("an unterminated quote fails only its own record, named by the line the quote opened on")
    func unterminatedQuote() throws {
        let records = try Self.readAll("a,b\n1,2\n3,\"never\nclosed,4\n")
        #expect(records.count == 3)
        #expect(records[1] == Self.ok(2, ["1", "2"]))
        #expect(records[2].line == 3 && records[2].fields == nil)
        #expect(records[2].error?.contains("field 2 ('b') opens a quote on line 3 that is never closed") == true)

        // A quote left open far from the end stops at the field limit instead of reading the file into memory.
        var text = "a,b\nx,\"open\n"
        text += String(repeating: "filler,row\n", count: 8_000)
        let path = try Self.file(Array(text.utf8))
        defer { Self.cleanup(path) }
        let reader = try CSVReader(path: path, format: CSVFormat(limits: CSVLimits(maxFieldBytes: 1_000)))
        _ = try reader.nextRecord()
        let bad = try #require(try reader.nextRecord())
        #expect(bad.line == 2 && bad.fields == nil)
        #expect(
            bad.problem?.description.contains("not closed within 1000 bytes") == true,
            "\(bad.problem?.description ?? "")")
        #expect(try reader.nextRecord() == nil)
    }

    @Test("the separator is detected from the header: semicolon and tab exports read field by field")
    func detectedSeparator() throws {
        for (separator, expected) in [(";", CSVDelimiter.semicolon), ("\t", .tab), (",", .comma)] {
            let text =
                ["memberName", "tier", "points"].joined(separator: separator) + "\n"
                + ["\"Lovelace, Ada\"", "Gold", "1200"].joined(separator: separator) + "\n"
            let path = try Self.file(Array(text.utf8))
            defer { Self.cleanup(path) }
            let reader = try CSVReader(path: path)
            #expect(reader.delimiter == expected)
            #expect(try reader.nextRecord()?.fields == ["memberName", "tier", "points"])
            #expect(try reader.nextRecord()?.fields == ["Lovelace, Ada", "Gold", "1200"])
        }
        // Semicolons inside quotes do not count; a given separator wins over detection.
        let path = try Self.file(Array("\"a;b;c\",d\n1,2\n".utf8))
        defer { Self.cleanup(path) }
        #expect(try CSVReader(path: path).delimiter == .comma)
        let forced = try CSVReader(path: path, format: CSVFormat(delimiter: .semicolon))
        #expect(try forced.nextRecord()?.fields == ["a;b;c,d"])
    }

    @Test("UTF-16LE with a BOM (Excel's Unicode text) and windows-1252 are read as UTF-8 text")
    func encodings() throws {
        let text = "memberName\ttier\nZoë Ünal\tGold\n😀 Smile\tSilver\n"
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(
            try Self.readAll(utf16) == [
                Self.ok(1, ["memberName", "tier"]), Self.ok(2, ["Zoë Ünal", "Gold"]),
                Self.ok(3, ["😀 Smile", "Silver"]),
            ])
        // UTF-16 split across the 64 KB chunk boundary (odd byte and surrogate pairs).
        var long = "n\n"
        for i in 0..<6_000 { long += "😀é\(i)\n" }
        var bytes: [UInt8] = [0xFE, 0xFF]
        for unit in long.utf16 { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        let records = try Self.readAll(bytes)
        #expect(records.count == 6_001)
        #expect(records.last == Self.ok(6_001, ["😀é5999"]))

        let cp1252: [UInt8] = Array("name;amount\n".utf8) + [0x5A, 0x6F, 0xEB, 0x3B, 0x80, 0x35, 0x0A]  // "Zoë;€5"
        let path = try Self.file(cp1252)
        defer { Self.cleanup(path) }
        let reader = try CSVReader(path: path, format: CSVFormat(encoding: .windows1252))
        _ = try reader.nextRecord()
        #expect(try reader.nextRecord()?.fields == ["Zoë", "€5"])
        let latin1 = try CSVReader(path: path, format: CSVFormat(encoding: .latin1))
        _ = try latin1.nextRecord()
        #expect(try latin1.nextRecord()?.fields == ["Zoë", "\u{80}5"])
    }

    @Test("a NUL or other control character fails its record, naming the field; tabs and line breaks are data")
    func controlCharacters() throws {
        let records = try Self.readAll(Array("a,b\nok,\"x\ty\"\nbad,x".utf8) + [0x00] + Array("y\nlast,\u{1B}\n".utf8))
        #expect(records[1] == Self.ok(2, ["ok", "x\ty"]))
        #expect(
            records[2].error
                == "field 2 ('b') holds the control character 0x00 at byte 2; remove it (values may hold tabs and line breaks, no other control characters)"
        )
        #expect(records[3].error?.hasPrefix("field 2 ('b') holds the control character 0x1B") == true)
    }

    @Test("a field or record over the limits fails only that record")
    func limits() throws {
        let text =
            "a,b\n" + String(repeating: "x", count: 2_000) + ",1\nok,2\n" + String(repeating: "y,", count: 40)
            + "\nend,3\n"
        let path = try Self.file(Array(text.utf8))
        defer { Self.cleanup(path) }
        let reader = try CSVReader(
            path: path,
            format: CSVFormat(limits: CSVLimits(maxFieldBytes: 1_000, maxRecordBytes: 10_000, maxFields: 20)))
        _ = try reader.nextRecord()
        #expect(try reader.nextRecord()?.problem?.description == "field 1 ('a') is longer than 1000 bytes")
        #expect(try reader.nextRecord()?.fields == ["ok", "2"])
        #expect(try reader.nextRecord()?.problem?.description == "the record has more than 20 fields")
        #expect(try reader.nextRecord()?.fields == ["end", "3"])
    }

    @Test("a value starting with '=' (or other formula characters) is carried verbatim")
    func formulaLikeValues() throws {
        #expect(
            try Self.readAll("a,b\n=cmd|' /C calc'!A0,\"=SUM(A1:A2), x\"\n+1,-2\n@x,=\"\"q\"\"\n") == [
                Self.ok(1, ["a", "b"]),
                Self.ok(2, ["=cmd|' /C calc'!A0", "=SUM(A1:A2), x"]),
                Self.ok(3, ["+1", "-2"]),
                Self.ok(4, ["@x", "=\"\"q\"\""]),
            ])
    }

    @Test("spaces around values are kept; a quote inside an unquoted field is data")
    func verbatimUnquoted() throws {
        #expect(
            try Self.readAll("a,b\n  x , y\nab\"c,d\n") == [
                Self.ok(1, ["a", "b"]), Self.ok(2, ["  x ", " y"]), Self.ok(3, ["ab\"c", "d"]),
            ])
    }

    @Test("CRLF, a doubled quote and a multi-byte character split across the 64 KB read boundary")
    func chunkBoundaries() throws {
        let chunk = 65_536
        // "h\n" is 2 bytes; the CR of the record's CRLF is the last byte of the first chunk.
        let crlf = Array("h\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: chunk - 3) + Array("\r\nnext\n".utf8)
        #expect(crlf[chunk - 1] == 0x0D && crlf[chunk] == 0x0A)
        #expect(
            try Self.readAll(crlf) == [
                Self.ok(1, ["h"]), Self.ok(2, [String(repeating: "x", count: chunk - 3)]), Self.ok(3, ["next"]),
            ])
        // The first quote of a doubled quote is the last byte of the first chunk ("h\n\"" is 3 bytes).
        let k = chunk - 4
        let quoted = Array("h\n\"".utf8) + Array(repeating: UInt8(ascii: "x"), count: k) + Array("\"\"y\"\nnext\n".utf8)
        #expect(quoted[chunk - 1] == UInt8(ascii: "\"") && quoted[chunk] == UInt8(ascii: "\""))
        #expect(
            try Self.readAll(quoted) == [
                Self.ok(1, ["h"]), Self.ok(2, [String(repeating: "x", count: k) + "\"y"]), Self.ok(3, ["next"]),
            ])
        // "é" (C3 A9) straddles the boundary.
        let utf8 = Array("h\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: chunk - 3) + Array("é\nnext\n".utf8)
        #expect(utf8[chunk - 1] == 0xC3 && utf8[chunk] == 0xA9)
        #expect(
            try Self.readAll(utf8) == [
                Self.ok(1, ["h"]), Self.ok(2, [String(repeating: "x", count: chunk - 3) + "é"]), Self.ok(3, ["next"]),
            ])
    }

    @Test("50,000 records read as a stream: every line number right, the last one included")
    func largeFile() throws {
        var text = "id,name,note\r\n"
        var expected: [(line: Int, fields: [String])] = []
        var line = 2
        for i in 0..<50_000 {
            if i % 7 == 3 {
                // Two embedded line breaks, one of them CRLF.
                text += "\(i),\"Name, \"\"\(i)\"\"\",\"a\nb\r\nc\"\n"
                expected.append((line, ["\(i)", "Name, \"\(i)\"", "a\nb\r\nc"]))
                line += 3
            } else if i % 2 == 0 {
                text += "\(i),Name \(i),é\r\n"
                expected.append((line, ["\(i)", "Name \(i)", "é"]))
                line += 1
            } else {
                text += "\(i),Name \(i),\n"
                expected.append((line, ["\(i)", "Name \(i)", ""]))
                line += 1
            }
        }
        let bytes = Array(text.utf8)
        #expect(bytes.count > 15 * 65_536, "the file should span many read chunks")
        let path = try Self.file(bytes)
        defer { Self.cleanup(path) }
        let reader = try CSVReader(path: path)
        #expect(try reader.nextRecord()?.fields == ["id", "name", "note"])
        var index = 0
        var mismatches = 0
        while let record = try reader.nextRecord() {
            guard index < expected.count else { index += 1; continue }
            if record.line != expected[index].line || record.fields != expected[index].fields {
                mismatches += 1
                if mismatches <= 3 {
                    Issue.record(
                        "record \(index): got line \(record.line) \(record.fields ?? []), expected \(expected[index])")
                }
            }
            index += 1
        }
        #expect(index == 50_000)
        #expect(mismatches == 0)
        #expect(expected.last?.line == line - 1)
        // 50,000 records from line 2, plus two extra lines for each of the 7,143 records with i % 7 == 3.
        #expect(line - 1 == 64_287)
    }

    @Test("a missing file is an invalidInput error naming the path")
    func missingFile() {
        do {
            _ = try CSVReader(path: "/nonexistent/passmint-\(UUID().uuidString).csv")
            Issue.record("opening a missing file did not throw")
        } catch {
            #expect(error.isInvalidInput)
            #expect(error.description.hasPrefix("/nonexistent/passmint-"))
        }
    }
}
