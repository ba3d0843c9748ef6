import Foundation
import Testing

/// `passmint batch` end to end.
@Suite("batch (end to end)")
struct BatchTests {
    static let loyalty = PackagePaths.template("loyalty")

    static func writeCSV(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// A CSV of `header` and `count` records made by `row`, written to `path`.
    static func writeCSV(header: String, count: Int, to path: String, row: (Int) -> String) throws {
        try writeCSV(([header] + (0..<count).map(row)).map { $0 + "\n" }.joined(), to: path)
    }

    static func report(_ path: String) throws -> [[String: Any]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    static func opensslVerifies(_ pkpass: String, tmp: TempDir) throws -> Bool {
        let dir = tmp.url.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        guard try CLI.run("unzip", ["-q", pkpass, "-d", dir.path]).status == 0 else { return false }
        return try CLI.run(
            "openssl",
            [
                "cms", "-verify", "-binary", "-inform", "DER", "-in", "signature", "-content", "manifest.json",
                "-CAfile",
                DevIdentity.directory + "/root-ca.pem", "-purpose", "any", "-out", "/dev/null",
            ], cwd: dir
        ).status == 0
    }

    @Test("five bad records are reported with their first line; every other record is issued and verifies")
    func badRecords() throws {
        let tmp = try TempDir()
        var csv = Data("memberName,memberNumber,points,tier\r\n".utf8)  // line 1
        csv += Data("Ada,M1,10,Gold\r\n".utf8)  // line 2
        csv += Data("\"Grace, \"\"Amazing\"\" Hopper\",M2,20,Silver\r\n".utf8)  // line 3: quotes and comma
        csv += Data("Bad Points,M3,lots,Gold\r\n".utf8)  // line 4: BAD integer
        csv += Data("\"Multi\nLine\nName\",M4,30,Bronze\n".utf8)  // lines 5-7
        csv += Data("Bad Tier,M5,40,Diamond\n".utf8)  // line 8: BAD enum
        csv += Data("Ok,M6,50,Bronze\n".utf8)  // line 9
        csv += Data("Bad".utf8) + Data([0xFF, 0xFE]) + Data("Bytes,M7,60,Gold\n".utf8)  // line 10: BAD UTF-8
        csv += Data("Too,Many,70,Gold,Fields\n".utf8)  // line 11: BAD field count
        csv += Data("=cmd|' /C calc'!A0,M9,80,Gold\n".utf8)  // line 12: text, not a formula
        csv += Data("\"Split\nBad\",M10,1.5,Gold\n".utf8)  // lines 13-14: BAD integer
        csv += Data("Last,M11,90,Silver\n".utf8)  // line 15
        try csv.write(to: URL(fileURLWithPath: tmp.path("in.csv")))
        let result = try CLI.passmint(
            [
                "batch", "--template", Self.loyalty, "--csv", tmp.path("in.csv"), "--out", tmp.path("out"), "--report",
                tmp.path("report.jsonl"), "--jobs", "2",
            ] + DevIdentity.signingArgs)
        #expect(result.status == 1, "a batch with failures exits 1: \(result.stderr)")
        let report = try Self.report(tmp.path("report.jsonl"))
        #expect(report.map { $0["line"] as? Int } == [2, 3, 4, 5, 8, 9, 10, 11, 12, 13, 15])
        let failed = report.filter { $0["status"] as? String == "failed" }
        #expect(failed.map { $0["line"] as? Int } == [4, 8, 10, 11, 13])
        let errors = failed.map { $0["error"] as? String ?? "" }
        #expect(errors[0].contains("points"))
        #expect(errors[1].contains("tier") && errors[1].contains("Diamond"))
        #expect(errors[2].contains("UTF-8"))
        #expect(errors[3].contains("fields"))
        #expect(errors[4].contains("points"))
        let issued = report.filter { $0["status"] as? String == "issued" }
        #expect(issued.count == 6)
        for entry in issued {
            let file = try #require(entry["file"] as? String)
            #expect(try Self.opensslVerifies(tmp.path("out/\(file)"), tmp: tmp), "\(file) does not verify")
        }
        // The formula-looking value is carried verbatim.
        let formula = try #require(issued.first { $0["line"] as? Int == 12 }?["file"] as? String)
        let pass = try CLI.run("unzip", ["-p", tmp.path("out/\(formula)"), "pass.json"]).stdout
        #expect(pass.contains("=cmd|' /C calc'!A0"))
    }

    @Test("a missing required column stops the batch before any pass is made")
    func missingRequiredColumn() throws {
        let tmp = try TempDir()
        let template = tmp.url.appendingPathComponent("tpl")
        try FileManager.default.copyItem(atPath: Self.loyalty, toPath: template.path)
        let tj = template.appendingPathComponent("template.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: tj)) as? [String: Any])
        var fields = try #require(json["fields"] as? [[String: Any]])
        for i in fields.indices where fields[i]["name"] as? String == "memberNumber" {
            fields[i]["required"] = true
            fields[i].removeValue(forKey: "default")
        }
        json["fields"] = fields
        try JSONSerialization.data(withJSONObject: json).write(to: tj)
        try Self.writeCSV("memberName,points,nickname\nAda,10,x\n", to: tmp.path("in.csv"))
        let result = try CLI.passmint(
            ["batch", "--template", template.path, "--csv", tmp.path("in.csv"), "--out", tmp.path("out")]
                + DevIdentity.signingArgs)
        #expect(result.status == 1)
        #expect(result.stderr.contains("memberNumber"))
        #expect(result.stderr.contains("line 1"))
        let made = (try? FileManager.default.contentsOfDirectory(atPath: tmp.path("out"))) ?? []
        #expect(made.filter { $0.hasSuffix(".pkpass") }.isEmpty)
    }

    @Test("killed with SIGKILL halfway, then --resume: every record issued once, every file valid")
    func killAndResume() throws {
        let tmp = try TempDir()
        let count = 400
        try Self.writeCSV(header: "memberName,memberNumber,points", count: count, to: tmp.path("in.csv")) {
            "Member \($0),M\($0),\($0)"
        }
        let args =
            [
                "batch", "--template", Self.loyalty, "--csv", tmp.path("in.csv"), "--out", tmp.path("out"),
                "--report", tmp.path("report.jsonl"), "--jobs", "2",
            ] + DevIdentity.signingArgs
        let process = try CLI.launch(args)
        var seen = 0
        waitUntil(timeout: 120) {
            seen = BatchKillTests.passCount(tmp.path("out"))
            return !process.isRunning || seen >= count / 3
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "the batch finished before it could be killed")
        #expect(seen < count)
        let resumed = try CLI.passmint(args + ["--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("already valid"))
        let report = try Self.report(tmp.path("report.jsonl"))
        #expect(report.count == count)
        #expect(report.allSatisfy { $0["status"] as? String == "issued" })
        #expect(report.contains { $0["resumed"] as? Bool == true })
        let files = try FileManager.default.contentsOfDirectory(atPath: tmp.path("out"))
        #expect(files.filter { $0.contains(".tmp-") }.isEmpty, "temporary files left behind")
        let passes = files.filter { $0.hasSuffix(".pkpass") }
        #expect(passes.count == count)
        #expect(Set(report.compactMap { $0["file"] as? String }) == Set(passes))
        for file in passes {
            #expect(try CLI.run("unzip", ["-tq", tmp.path("out/\(file)")]).status == 0, "\(file) is damaged")
        }
        for file in passes.shuffled().prefix(40) {
            #expect(try Self.opensslVerifies(tmp.path("out/\(file)"), tmp: tmp))
        }
    }

    @Test("--bundle writes .pkpasses of at most 10 passes each")
    func bundles() throws {
        let tmp = try TempDir()
        try Self.writeCSV(header: "memberName", count: 23, to: tmp.path("in.csv")) { "M \($0)" }
        let result = try CLI.passmint(
            ["batch", "--template", Self.loyalty, "--csv", tmp.path("in.csv"), "--out", tmp.path("out"), "--bundle"]
                + DevIdentity.signingArgs)
        #expect(result.status == 0, "\(result.stderr)")
        let bundles = try FileManager.default.contentsOfDirectory(atPath: tmp.path("out")).filter {
            $0.hasSuffix(".pkpasses")
        }.sorted()
        #expect(bundles.count == 3)
        var total = 0
        for bundle in bundles {
            let names = try CLI.run("unzip", ["-Z1", tmp.path("out/\(bundle)")]).stdout.split(separator: "\n")
            #expect(names.count <= 10)
            #expect(names.allSatisfy { $0.hasSuffix(".pkpass") })
            total += names.count
            // Each bundled pass is byte for byte the .pkpass written next to it.
            for name in names {
                let inBundle = try CLI.run("sh", ["-c", "unzip -p '\(tmp.path("out/\(bundle)"))' '\(name)' | sha1sum"])
                    .stdout
                let alone = try CLI.run("sh", ["-c", "sha1sum < '\(tmp.path("out/\(name)"))'"]).stdout
                #expect(inBundle == alone, "\(bundle): \(name)")
            }
        }
        #expect(total == 23)
        #expect(try CLI.run("unzip", ["-tq", tmp.path("out/\(bundles[0])")]).status == 0)
    }

    @Test("--shard splits one CSV between runs without overlap; shards sharing a folder do not overwrite bundles")
    func shards() throws {
        let tmp = try TempDir()
        try Self.writeCSV(header: "memberName", count: 10, to: tmp.path("in.csv")) { "M \($0)" }
        var all: [String] = []
        for shard in ["1/3", "2/3", "3/3"] {
            let r = try CLI.passmint(
                [
                    "batch", "--template", Self.loyalty, "--csv", tmp.path("in.csv"), "--out",
                    tmp.path("out-\(shard.prefix(1))"),
                    "--shard", shard,
                ] + DevIdentity.signingArgs)
            #expect(r.status == 0, "\(r.stderr)")
            all += try FileManager.default.contentsOfDirectory(atPath: tmp.path("out-\(shard.prefix(1))"))
        }
        #expect(all.count == 10)
        #expect(Set(all).count == 10)

        for shard in ["1/2", "2/2"] {
            let r = try CLI.passmint(
                [
                    "batch", "--template", Self.loyalty, "--csv", tmp.path("in.csv"), "--out", tmp.path("shared"),
                    "--shard", shard, "--bundle",
                ] + DevIdentity.signingArgs)
            #expect(r.status == 0, "\(r.stderr)")
        }
        let bundles = try FileManager.default.contentsOfDirectory(atPath: tmp.path("shared")).filter {
            $0.hasSuffix(".pkpasses")
        }
        #expect(bundles.sorted() == ["bundle-1of2-00001.pkpasses", "bundle-2of2-00001.pkpasses"])
    }
}
