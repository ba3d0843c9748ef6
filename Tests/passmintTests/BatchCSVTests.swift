import Foundation
import Testing

/// `passmint batch` on spreadsheet exports as they come: other separators, UTF-16, legacy encodings, broken quotes.
@Suite("batch: CSVs from spreadsheets (end to end)")
struct BatchCSVTests {
    static let loyalty = BatchTests.loyalty

    static func batch(_ tmp: TempDir, _ extra: [String] = []) throws -> CLI.Result {
        try CLI.passmint(
            [
                "batch", "--template", loyalty, "--csv", tmp.path("in.csv"), "--out", tmp.path("out"), "--report",
                tmp.path("report.jsonl"), "--jobs", "2",
            ] + extra + DevIdentity.signingArgs)
    }

    static func memberName(_ tmp: TempDir, _ file: String) throws -> String? {
        let json = try CLI.run("unzip", ["-p", tmp.path("out/\(file)"), "pass.json"]).stdout
        let pass = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let card = pass?["storeCard"] as? [String: Any]
        let fields =
            (card?["primaryFields"] as? [[String: Any]] ?? []) + (card?["secondaryFields"] as? [[String: Any]] ?? [])
            + (card?["auxiliaryFields"] as? [[String: Any]] ?? []) + (card?["headerFields"] as? [[String: Any]] ?? [])
        return fields.compactMap { $0["value"] as? String }.first { $0.contains("Lovelace") || $0.contains("Ünal") }
    }

    @Test("a semicolon-separated export is read field by field (detected), not issued with the defaults")
    func semicolons() throws {
        let tmp = try TempDir()
        try BatchTests.writeCSV(
            "memberName;memberNumber;points;tier\n\"Lovelace; Ada\";M1;10;Gold\nAda Lovelace;M2;20;Silver\n",
            to: tmp.path("in.csv"))
        let result = try Self.batch(tmp)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("is not a field"), "\(result.stderr)")
        let report = try BatchTests.report(tmp.path("report.jsonl"))
        #expect(report.count == 2)
        let names = try report.map { try Self.memberName(tmp, $0["file"] as? String ?? "") }
        #expect(names == ["Lovelace; Ada", "Ada Lovelace"])
    }

    @Test("a header that names no template field stops the batch before any pass, naming the separator")
    func noKnownColumn() throws {
        let tmp = try TempDir()
        try BatchTests.writeCSV("name|number\nAda|1\n", to: tmp.path("in.csv"))
        let result = try Self.batch(tmp)
        #expect(result.status == 1)
        #expect(result.stderr.contains("no column of the header names a field"), "\(result.stderr)")
        #expect(result.stderr.contains("separator ','"), "\(result.stderr)")
        let made = (try? FileManager.default.contentsOfDirectory(atPath: tmp.path("out"))) ?? []
        #expect(made.filter { $0.hasSuffix(".pkpass") }.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: tmp.path("report.jsonl")))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: tmp.url.path).filter { $0.contains(".tmp-") }.isEmpty)
        // With the separator given, the same file works.
        let given = try Self.batch(tmp, ["--delimiter", "|"])
        #expect(given.status == 1, "name and number are still not fields: \(given.stderr)")
    }

    @Test(
        "an unterminated quote near the end: the 200 records before it are issued and reported, it fails by its line, no temporary file is left"
    )
    func unterminatedQuoteNearTheEnd() throws {
        let tmp = try TempDir()
        var text = "memberName,memberNumber,points,tier\n"
        for i in 0..<200 { text += "Member \(i),M\(i),\(i),Gold\n" }
        text += "\"Broken,M999,1,Gold\nNext,M1000,2,Gold\n"  // line 202 opens a quote that never closes
        try BatchTests.writeCSV(text, to: tmp.path("in.csv"))
        let result = try Self.batch(tmp)
        #expect(result.status == 1)
        let report = try BatchTests.report(tmp.path("report.jsonl"))
        #expect(report.count == 201)
        #expect(report.prefix(200).allSatisfy { $0["status"] as? String == "issued" })
        let bad = try #require(report.last)
        #expect(bad["line"] as? Int == 202)
        #expect((bad["error"] as? String)?.contains("never closed") == true)
        #expect(result.stderr.contains("line 202: "), "the summary names the first failures: \(result.stderr)")
        let leftovers =
            try FileManager.default.contentsOfDirectory(atPath: tmp.url.path).filter { $0.contains(".tmp-") }
            + (try FileManager.default.contentsOfDirectory(atPath: tmp.path("out"))).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test("Excel's Unicode text (UTF-16LE with a BOM, tab-separated) and a windows-1252 export")
    func encodings() throws {
        let tmp = try TempDir()
        let text = "memberName\tmemberNumber\tpoints\ttier\nZoë Ünal\tM1\t10\tGold\n"
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        try Data(bytes).write(to: URL(fileURLWithPath: tmp.path("in.csv")))
        let result = try Self.batch(tmp)
        #expect(result.status == 0, "\(result.stderr)")
        let file = try #require(try BatchTests.report(tmp.path("report.jsonl")).first?["file"] as? String)
        #expect(try Self.memberName(tmp, file) == "Zoë Ünal")

        let tmp2 = try TempDir()
        let cp1252 =
            Array("memberName;memberNumber;points;tier\n".utf8) + [0x5A, 0x6F, 0xEB, 0x20, 0xDC, 0x6E, 0x61, 0x6C]
            + Array(";M1;10;Gold\n".utf8)
        try Data(cp1252).write(to: URL(fileURLWithPath: tmp2.path("in.csv")))
        let plain = try Self.batch(tmp2)
        #expect(plain.status == 1)
        #expect(plain.stderr.contains("is not valid UTF-8 (byte 0xEB"), "\(plain.stderr)")
        #expect(
            plain.stderr.contains("rerun with --encoding windows-1252"),
            "the summary suggests --encoding: \(plain.stderr)")
        let decoded = try Self.batch(tmp2, ["--encoding", "windows-1252"])
        #expect(decoded.status == 0, "\(decoded.stderr)")
        let second = try #require(try BatchTests.report(tmp2.path("report.jsonl")).first?["file"] as? String)
        #expect(try Self.memberName(tmp2, second) == "Zoë Ünal")
        #expect(try CLI.passmint(["batch", "--encoding", "klingon"]).status == 2)
    }
}
