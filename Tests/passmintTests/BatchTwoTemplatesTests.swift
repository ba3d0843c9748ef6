import Foundation
import PassMintTestSupport
import Testing

/// One CSV issued through two templates into one folder: derived serials include the template, and `--resume`
/// keeps a pass only when this template (and version) made it.
@Suite("batch: one CSV through two templates (end to end)")
struct BatchTwoTemplatesTests {
    static func batch(_ template: String, csv: String, out: String, extra: [String] = []) throws -> CLI.Result {
        try CLI.passmint(
            ["batch", "--template", PackagePaths.template(template), "--csv", csv, "--out", out] + extra
                + DevIdentity.signingArgs)
    }

    /// File name → bytes of every pass in `folder`.
    static func passes(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix(".pkpass") {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(name)"))
        }
        return files
    }

    @Test(
        "derived serials: the status batch writes beside the loyalty batch, no file overwritten; each resumes its own")
    func derivedSerials() throws {
        let tmp = try TempDir()
        let csv = tmp.path("members.csv"), out = tmp.path("passes")
        try "memberName,tier\nAda,Gold\nBob,Silver\nCy,Gold\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let loyalty = try Self.batch("loyalty", csv: csv, out: out)
        try #require(loyalty.status == 0, "\(loyalty.stderr)")
        let first = try Self.passes(out)
        #expect(first.count == 3)
        let status = try Self.batch("status", csv: csv, out: out)
        try #require(status.status == 0, "\(status.stderr)")
        let both = try Self.passes(out)
        #expect(both.count == 6, "\(both.keys.sorted())")
        for (name, bytes) in first { #expect(both[name] == bytes, "\(name) was overwritten") }
        // Each template's rerun finds its own three passes and makes nothing.
        for template in ["loyalty", "status"] {
            let resumed = try Self.batch(template, csv: csv, out: out, extra: ["--resume"])
            #expect(resumed.stderr.contains("0 issued, 0 updated, 0 unchanged, 3 already valid"), "\(resumed.stderr)")
        }
        #expect(try Self.passes(out) == both)
    }

    @Test("given serials: --resume with the other template issues the records instead of keeping the passes")
    func resumeChecksTemplate() throws {
        let tmp = try TempDir()
        let csv = tmp.path("members.csv"), out = tmp.path("passes"), report = tmp.path("report.jsonl")
        try "serialNumber,memberName,tier\nS-1,Ada,Gold\nS-2,Bob,Silver\n".write(
            toFile: csv, atomically: true, encoding: .utf8)
        try #require(try Self.batch("loyalty", csv: csv, out: out).status == 0)
        #expect(try ServeTools.passJSON(out + "/S-1.pkpass")["storeCard"] != nil)
        let other = try Self.batch("status", csv: csv, out: out, extra: ["--resume", "--report", report])
        #expect(other.status == 0, "\(other.stderr)")
        #expect(other.stderr.contains("2 issued, 0 updated, 0 unchanged, 0 already valid"), "\(other.stderr)")
        let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { !$0.contains("resumed") && $0.contains(#""status":"issued""#) })
        for serial in ["S-1", "S-2"] {
            let json = try ServeTools.passJSON("\(out)/\(serial).pkpass")
            #expect(json["storeCard"] == nil, "\(serial) is still the loyalty pass")
        }
        // The same template resumes them: they are what it would make.
        let same = try Self.batch("status", csv: csv, out: out, extra: ["--resume"])
        #expect(same.stderr.contains("0 issued, 0 updated, 0 unchanged, 2 already valid"), "\(same.stderr)")
        // An edited record with the same serial is not what this run would make: issued again.
        try "serialNumber,memberName,tier\nS-1,Ada,Silver\nS-2,Bob,Silver\n".write(
            toFile: csv, atomically: true, encoding: .utf8)
        let edited = try Self.batch("status", csv: csv, out: out, extra: ["--resume"])
        #expect(edited.stderr.contains("1 issued, 0 updated, 0 unchanged, 1 already valid"), "\(edited.stderr)")
    }
}
