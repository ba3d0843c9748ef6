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
            out.append(Read(line: record.line, fields: record.fields, error: record.error))
        }
        return out
    }

    static func readAll(_ text: String) throws -> [Read] { try readAll(Array(text.utf8)) }

    static func ok(_ line: Int, _ fields: [String]) -> Read { Read(line: line, fields: fields, error: nil) }

    /// The error thrown by reading `bytes` to the end, or nil.
    static func thrownError(_ bytes: [UInt8], path: inout String) -> PassMintError? {
        do {
            path = try file(bytes)
            let reader = try CSVReader(path: path)
            while try reader.nextRecord() != nil {}
            return nil
        } catch let error as PassMintError {
            return error
        } catch {
            return nil
        }
    }

    @Test("plain LF records; the header is line 1")
    func plainLF() throws {
        #expect(try Self.readAll("name,points\nAda,10\nGrace,20\n") == [
            Self.ok(1, ["name", "points"]), Self.ok(2, ["Ada", "10"]), Self.ok(3, ["Grace", "20"]),
        ])
    }

    @Test("quoted fields keep commas, doubled quotes stand for one quote")
    func quotedCommasAndQuotes() throws {
        let records = try Self.readAll("a,b,c\n\"Hopper, Grace\",\"say \"\"hi\"\"\",\"\"\"\"\n\"\",x,\"\"\"a,b\"\"\"\n")
        #expect(records == [
            Self.ok(1, ["a", "b", "c"]),
            Self.ok(2, ["Hopper, Grace", "say \"hi\"", "\""]),
            Self.ok(3, ["", "x", "\"a,b\""]),
        ])
    }

    @Test("a newline inside quotes: the record keeps its first line, the next record counts the embedded lines")
    func embeddedNewlines() throws {
        let text = "name,note\n"  // 1
            + "\"Multi\nLine\nName\",x\n"  // 2-4
            + "after,y\n"  // 5
            + "z,\"one\r\ntwo\"\r\n"  // 6-7 (CRLF inside and after)
            + "last,\"\n\"\n"  // 8-9 (field is just a newline)
            + "end,w\n"  // 10
        #expect(try Self.readAll(text) == [
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
        #expect(try Self.readAll("h,n\r\"x\ry\",1\rnext,2\r") == [
            Self.ok(1, ["h", "n"]), Self.ok(2, ["x\ry", "1"]), Self.ok(4, ["next", "2"]),
        ])
    }

    @Test("CRLF, LF and a mix of both give the same records and lines")
    func lineEndings() throws {
        let expected = [Self.ok(1, ["h1", "h2"]), Self.ok(2, ["a", "b"]), Self.ok(3, ["c", "d"]), Self.ok(4, ["e", "f"])]
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
        #expect(try Self.readAll(bom + Array("\"a\",b\r\n1,2\r\n".utf8)) == [Self.ok(1, ["a", "b"]), Self.ok(2, ["1", "2"])])
        // A BOM-like sequence later in the file is data, not stripped.
        #expect(try Self.readAll(Array("h\n".utf8) + bom + Array("x\n".utf8)) == [Self.ok(1, ["h"]), Self.ok(2, ["\u{FEFF}x"])])
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
        #expect(try Self.readAll("a,b,c\n,,\n\"\",,\"\"\nx,,\n,y,\n") == [
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
        #expect(records == [
            Self.ok(1, ["name", "note"]),
            Self.ok(2, ["Ada", "ok"]),
            Read(line: 3, fields: nil, error: "field 2 is not valid UTF-8; save the CSV as UTF-8"),
            Self.ok(6, ["Grace", "fine"]),
            Read(line: 7, fields: nil, error: "field 1 is not valid UTF-8; save the CSV as UTF-8"),
            Self.ok(8, ["Last", "é"]),
        ])
    }

    @Test("an unterminated quote at the end of the file is a clear error naming the file and the line")
    func unterminatedQuote() throws {
        var path = ""
        let error = Self.thrownError(Array("a,b\n1,2\n3,\"never\nclosed,4\n".utf8), path: &path)
        defer { Self.cleanup(path) }
        let thrown = try #require(error)
        #expect(thrown.isInvalidInput)
        #expect(thrown.description.hasPrefix("\(path):3: "), "\(thrown.description)")
        #expect(thrown.description.contains("never closed"))

        // The records before it are read normally.
        let path2 = try Self.file(Array("a\n\"x\"\n\"open".utf8))
        defer { Self.cleanup(path2) }
        let reader = try CSVReader(path: path2)
        #expect(try reader.nextRecord()?.fields == ["a"])
        let second = try #require(try reader.nextRecord())
        #expect(second.line == 2 && second.fields == ["x"])
        #expect(throws: PassMintError.self) { try reader.nextRecord() }
    }

    @Test("a value starting with '=' (or other formula characters) is carried verbatim")
    func formulaLikeValues() throws {
        #expect(try Self.readAll("a,b\n=cmd|' /C calc'!A0,\"=SUM(A1:A2), x\"\n+1,-2\n@x,=\"\"q\"\"\n") == [
            Self.ok(1, ["a", "b"]),
            Self.ok(2, ["=cmd|' /C calc'!A0", "=SUM(A1:A2), x"]),
            Self.ok(3, ["+1", "-2"]),
            Self.ok(4, ["@x", "=\"\"q\"\""]),
        ])
    }

    @Test("spaces around values are kept; a quote inside an unquoted field is data")
    func verbatimUnquoted() throws {
        #expect(try Self.readAll("a,b\n  x , y\nab\"c,d\n") == [
            Self.ok(1, ["a", "b"]), Self.ok(2, ["  x ", " y"]), Self.ok(3, ["ab\"c", "d"]),
        ])
    }

    @Test("CRLF, a doubled quote and a multi-byte character split across the 64 KB read boundary")
    func chunkBoundaries() throws {
        let chunk = 65_536
        // "h\n" is 2 bytes; the CR of the record's CRLF is the last byte of the first chunk.
        let crlf = Array("h\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: chunk - 3) + Array("\r\nnext\n".utf8)
        #expect(crlf[chunk - 1] == 0x0D && crlf[chunk] == 0x0A)
        #expect(try Self.readAll(crlf) == [
            Self.ok(1, ["h"]), Self.ok(2, [String(repeating: "x", count: chunk - 3)]), Self.ok(3, ["next"]),
        ])
        // The first quote of a doubled quote is the last byte of the first chunk ("h\n\"" is 3 bytes).
        let k = chunk - 4
        let quoted = Array("h\n\"".utf8) + Array(repeating: UInt8(ascii: "x"), count: k) + Array("\"\"y\"\nnext\n".utf8)
        #expect(quoted[chunk - 1] == UInt8(ascii: "\"") && quoted[chunk] == UInt8(ascii: "\""))
        #expect(try Self.readAll(quoted) == [
            Self.ok(1, ["h"]), Self.ok(2, [String(repeating: "x", count: k) + "\"y"]), Self.ok(3, ["next"]),
        ])
        // "é" (C3 A9) straddles the boundary.
        let utf8 = Array("h\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: chunk - 3) + Array("é\nnext\n".utf8)
        #expect(utf8[chunk - 1] == 0xC3 && utf8[chunk] == 0xA9)
        #expect(try Self.readAll(utf8) == [
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
                    Issue.record("record \(index): got line \(record.line) \(record.fields ?? []), expected \(expected[index])")
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

    @Test("a missing file is an invalidInput error naming --csv and the path")
    func missingFile() {
        do {
            _ = try CSVReader(path: "/nonexistent/passmint-\(UUID().uuidString).csv")
            Issue.record("opening a missing file did not throw")
        } catch {
            #expect(error.isInvalidInput)
            #expect(error.description.contains("--csv /nonexistent/passmint-"))
        }
    }
}
