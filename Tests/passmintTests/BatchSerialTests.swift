import Foundation
import Testing

/// Derived serial numbers end to end: ordered by line within a batch, and a pass an earlier version stored under
/// its earlier serial stays the member's pass.
@Suite("batch (end to end, derived serials)")
struct BatchSerialTests {
    static let url = "https://example.com/passes"

    /// Store-only batch arguments.
    static func args(_ tmp: TempDir, csv: String, db: String, report: String) -> [String] {
        [
            "batch", "--template", BatchTests.loyalty, "--csv", tmp.path(csv), "--db", tmp.path(db),
            "--web-service-url", url, "--report", tmp.path(report), "--jobs", "2",
        ] + DevIdentity.signingArgs
    }

    /// Serial numbers of a report, by line.
    static func serials(_ path: String) throws -> [Int: String] {
        var out: [Int: String] = [:]
        for row in try BatchTests.report(path) {
            if let line = row["line"] as? Int, let serial = row["serialNumber"] as? String { out[line] = serial }
        }
        return out
    }

    static func sqlite(_ db: String, _ sql: String) throws -> [String] {
        let result = try CLI.run("sqlite3", ["-separator", "|", db, sql])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// The serials PassMint derived before they were ordered by line, computed here from the rule (the template's
    /// non-hidden files, the CSV's name, the line and the fields), independently of PassMint's code.
    static func earlierSerials(csv: String, template: String) throws -> [Int: String] {
        let script = """
            import hashlib, os, sys
            template, csv = sys.argv[1], sys.argv[2]
            material = b""
            paths = []
            for root, dirs, files in os.walk(template):
                for name in files:
                    if not name.startswith("."):
                        paths.append(os.path.relpath(os.path.join(root, name), template))
            for path in sorted(paths, key=lambda p: p.encode()):
                with open(os.path.join(template, path), "rb") as f:
                    digest = hashlib.sha1(f.read()).hexdigest()
                material += path.encode() + b"\\0" + digest.encode() + b"\\n"
            identity = hashlib.sha1(material).hexdigest()
            lines = open(csv, encoding="utf-8").read().split("\\n")
            for number, text in enumerate(lines[1:], start=2):
                if text:
                    fields = text.split(",")
                    record = f"{identity}\\n{os.path.basename(csv)}\\n{number}\\n" + "\\x1f".join(fields)
                    print(number, hashlib.sha1(record.encode()).hexdigest()[:24].upper())
            """
        let result = try CLI.run("/usr/bin/python3", ["-c", script, template, csv])
        #expect(result.status == 0, "\(result.stderr)")
        var out: [Int: String] = [:]
        for row in result.stdout.split(separator: "\n") {
            let parts = row.split(separator: " ")
            if parts.count == 2, let line = Int(parts[0]) { out[line] = String(parts[1]) }
        }
        return out
    }

    @Test("derived serials: one prefix per batch, then the line in hex, so a batch's serials rise with its lines")
    func orderedByLine() throws {
        let tmp = try TempDir()
        for name in ["in.csv", "other.csv"] {
            try BatchTests.writeCSV(header: "memberName,points", count: 40, to: tmp.path(name)) { "Member \($0),\($0)" }
        }
        let run = try CLI.passmint(Self.args(tmp, csv: "in.csv", db: "a.db", report: "r.jsonl"))
        #expect(run.status == 0, "\(run.stderr)")
        let serials = try Self.serials(tmp.path("r.jsonl"))
        #expect(serials.count == 40)
        let prefix = try #require(serials[2]).prefix(8)
        for (line, serial) in serials {
            #expect(serial.count == 24 && serial.allSatisfy { $0.isHexDigit && !$0.isLowercase }, "\(serial)")
            #expect(serial.hasPrefix(prefix), "line \(line): \(serial) does not start with \(prefix)")
            #expect(
                Int(serial.dropFirst(8).prefix(8), radix: 16) == line, "line \(line): \(serial) does not carry it")
        }
        let inLineOrder = serials.keys.sorted().map { serials[$0]! }
        #expect(inLineOrder == inLineOrder.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        // The store's own order is the CSV's.
        #expect(try Self.sqlite(tmp.path("a.db"), "SELECT serial FROM passes ORDER BY serial") == inLineOrder)
        // Another CSV name is another batch: another prefix.
        let other = try CLI.passmint(Self.args(tmp, csv: "other.csv", db: "a.db", report: "r2.jsonl"))
        #expect(other.status == 0, "\(other.stderr)")
        let second = try Self.serials(tmp.path("r2.jsonl"))
        #expect(second.count == 40 && second.values.allSatisfy { !$0.hasPrefix(prefix) }, "\(second)")
    }

    @Test("a pass stored under the serial an earlier version derived is found again: same serial, same token")
    func earlierSerialsKept() throws {
        let tmp = try TempDir()
        try BatchTests.writeCSV(header: "memberName,points", count: 5, to: tmp.path("in.csv")) {
            "Member \($0),\($0 * 10)"
        }
        let earlier = try Self.earlierSerials(csv: tmp.path("in.csv"), template: BatchTests.loyalty)
        #expect(earlier.count == 5)
        // The store as an earlier version left it for lines 2 and 3: the same records under their earlier serials.
        var before = "memberName,points,serialNumber\n"
        before += "Member 0,0,\(earlier[2]!)\nMember 1,10,\(earlier[3]!)\n"
        try BatchTests.writeCSV(before, to: tmp.path("before.csv"))
        let seeded = try CLI.passmint(Self.args(tmp, csv: "before.csv", db: "pm.db", report: "r0.jsonl"))
        #expect(seeded.status == 0, "\(seeded.stderr)")
        let tokensBefore = try Self.sqlite(tmp.path("pm.db"), "SELECT serial, auth_token FROM passes ORDER BY serial")

        let run = try CLI.passmint(Self.args(tmp, csv: "in.csv", db: "pm.db", report: "r.jsonl"))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("3 issued") && run.stderr.contains("2 unchanged"), "\(run.stderr)")
        let serials = try Self.serials(tmp.path("r.jsonl"))
        #expect(serials[2] == earlier[2] && serials[3] == earlier[3], "\(serials) \(earlier)")
        for line in 4...6 {
            #expect(serials[line] != earlier[line] && Int(serials[line]!.dropFirst(8).prefix(8), radix: 16) == line)
        }
        #expect(try Self.sqlite(tmp.path("pm.db"), "SELECT count(*) FROM passes") == ["5"])
        let tokensAfter = try Self.sqlite(
            tmp.path("pm.db"),
            "SELECT serial, auth_token FROM passes WHERE serial IN ('\(earlier[2]!)', '\(earlier[3]!)') ORDER BY serial"
        )
        #expect(tokensAfter == tokensBefore, "the earlier passes' tokens changed")
    }
}
