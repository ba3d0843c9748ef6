import Foundation
import Testing

/// More of `passmint batch` end to end: BOM, unknown columns, serial numbers, `--db`, the summary line, the report.
@Suite("batch (end to end, more)")
struct BatchMoreTests {
    /// The batch arguments every test shares.
    static func batchArgs(_ tmp: TempDir, csv: String = "in.csv", out: String = "out", extra: [String] = []) -> [String]
    {
        ["batch", "--template", BatchTests.loyalty, "--csv", tmp.path(csv), "--out", tmp.path(out), "--jobs", "2"]
            + extra + DevIdentity.signingArgs
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// pass.json of a .pkpass, parsed.
    static func passJSON(_ pkpass: String) throws -> [String: Any] {
        let result = try CLI.run("unzip", ["-p", pkpass, "pass.json"])
        #expect(result.status == 0, "unzip -p \(pkpass) failed: \(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// Every value of every field of a store card (`storeCard.*Fields[].value`), by key.
    static func fieldValues(_ pass: [String: Any]) -> [String: String] {
        var out: [String: String] = [:]
        let card = pass["storeCard"] as? [String: Any] ?? [:]
        for (_, group) in card {
            for field in group as? [[String: Any]] ?? [] {
                if let key = field["key"] as? String { out[key] = field["value"].map { "\($0)" } }
            }
        }
        return out
    }

    static func pkpasses(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".pkpass") }.sorted()
    }

    static func occurrences(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    /// The last non-empty line of stderr.
    static func lastLine(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: true).last.map(String.init) ?? ""
    }

    @Test("a CSV with a UTF-8 BOM and LF endings issues its passes; the BOM does not spoil the first header")
    func bomAndLF() throws {
        let tmp = try TempDir()
        try Self.write(
            [0xEF, 0xBB, 0xBF] + Array("memberName,points,tier\nAda Lovelace,10,Gold\nGrace Hopper,20,Silver\n".utf8),
            to: tmp.path("in.csv"))
        let result = try CLI.passmint(Self.batchArgs(tmp, extra: ["--report", tmp.path("r.jsonl")]))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("warning"), "the BOM made the first header unknown: \(result.stderr)")
        let report = try BatchTests.report(tmp.path("r.jsonl"))
        #expect(report.map { $0["line"] as? Int } == [2, 3])
        #expect(report.allSatisfy { $0["status"] as? String == "issued" })
        var names: [String] = []
        for entry in report {
            let file = try #require(entry["file"] as? String)
            #expect(try BatchTests.opensslVerifies(tmp.path("out/\(file)"), tmp: tmp))
            let values = Self.fieldValues(try Self.passJSON(tmp.path("out/\(file)")))
            names.append(values["member"] ?? "")
        }
        #expect(names == ["Ada Lovelace", "Grace Hopper"])
        let first = Self.fieldValues(try Self.passJSON(tmp.path("out/\(report[0]["file"] as? String ?? "")")))
        #expect(first["points"] == "10")
        #expect(first["tier"] == "Gold")
    }

    @Test("an unknown header is warned about exactly once, not once per record, and the batch succeeds")
    func unknownHeaderWarnedOnce() throws {
        let tmp = try TempDir()
        try BatchTests.writeCSV(header: "memberName,nickname,points", count: 12, to: tmp.path("in.csv")) {
            "Member \($0),nick\($0),\($0)"
        }
        let result = try CLI.passmint(Self.batchArgs(tmp))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.occurrences(of: "nickname", in: result.stderr) == 1, "\(result.stderr)")
        let warning = try #require(result.stderr.split(separator: "\n").first { $0.contains("nickname") })
        #expect(warning.contains("warning"))
        #expect(warning.contains("ignored"))
        #expect(!result.stderr.contains("memberName"), "a known column was warned about: \(result.stderr)")
        #expect(Self.pkpasses(tmp.path("out")).count == 12)
    }

    @Test("a serialNumber column names the pass and its file; an unsafe serial fails only its record")
    func serialNumberColumn() throws {
        let tmp = try TempDir()
        let csv =
            "serialNumber,memberName\n"  // 1
            + "SER-001,Ada\n"  // 2
            + "../x,Bob\n"  // 3: path traversal
            + "a b,Carl\n"  // 4: space
            + "SER_2.b,Dan\n"  // 5
            + "..,Eve\n"  // 6
            + "x/y,Fay\n"  // 7
        try BatchTests.writeCSV(csv, to: tmp.path("in.csv"))
        let result = try CLI.passmint(Self.batchArgs(tmp, extra: ["--report", tmp.path("r.jsonl")]))
        #expect(result.status == 1, "a failed record makes the batch exit 1: \(result.stderr)")
        let report = try BatchTests.report(tmp.path("r.jsonl"))
        #expect(report.map { $0["line"] as? Int } == [2, 3, 4, 5, 6, 7])
        #expect(report.map { $0["status"] as? String } == ["issued", "failed", "failed", "issued", "failed", "failed"])
        #expect(report.map { $0["file"] as? String } == ["SER-001.pkpass", nil, nil, "SER_2.b.pkpass", nil, nil])
        #expect(report.map { $0["serialNumber"] as? String } == ["SER-001", "../x", "a b", "SER_2.b", "..", "x/y"])
        for entry in report where entry["status"] as? String == "failed" {
            let error = entry["error"] as? String ?? ""
            #expect(error.contains("serialNumber"), "\(error)")
            #expect(error.contains("'\(entry["serialNumber"] as? String ?? "?")'"), "\(error)")
        }
        #expect(Self.pkpasses(tmp.path("out")) == ["SER-001.pkpass", "SER_2.b.pkpass"])
        #expect(Self.pkpasses(tmp.url.path).isEmpty, "a pass escaped the output folder")
        #expect(!FileManager.default.fileExists(atPath: tmp.path("x.pkpass")))
        let pass = try Self.passJSON(tmp.path("out/SER-001.pkpass"))
        #expect(pass["serialNumber"] as? String == "SER-001")
        #expect(Self.fieldValues(pass)["member"] == "Ada")
        #expect(try Self.passJSON(tmp.path("out/SER_2.b.pkpass"))["serialNumber"] as? String == "SER_2.b")
        #expect(try BatchTests.opensslVerifies(tmp.path("out/SER-001.pkpass"), tmp: tmp))
    }

    @Test("without a serialNumber column, two runs give the same file names, and the serials are unique")
    func stableSerials() throws {
        let tmp = try TempDir()
        var csv = "memberName,points\n"
        for i in 0..<10 { csv += "Member \(i),\(i)\n" }
        for _ in 0..<3 { csv += "Same Name,5\n" }  // identical records still get distinct serials
        try BatchTests.writeCSV(csv, to: tmp.path("in.csv"))
        let first = try CLI.passmint(Self.batchArgs(tmp, out: "out1", extra: ["--report", tmp.path("r1.jsonl")]))
        let second = try CLI.passmint(Self.batchArgs(tmp, out: "out2", extra: ["--report", tmp.path("r2.jsonl")]))
        #expect(first.status == 0, "\(first.stderr)")
        #expect(second.status == 0, "\(second.stderr)")
        let files1 = Self.pkpasses(tmp.path("out1")), files2 = Self.pkpasses(tmp.path("out2"))
        #expect(files1.count == 13)
        #expect(Set(files1).count == 13)
        #expect(files1 == files2)
        let r1 = try BatchTests.report(tmp.path("r1.jsonl")), r2 = try BatchTests.report(tmp.path("r2.jsonl"))
        let serials1 = r1.compactMap { $0["serialNumber"] as? String }
        #expect(
            serials1 == r2.compactMap { $0["serialNumber"] as? String }, "serials differ between runs, record by record"
        )
        #expect(Set(serials1).count == 13)
        #expect(
            serials1.allSatisfy {
                !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
            })
        for entry in r1.prefix(3) {
            let serial = try #require(entry["serialNumber"] as? String)
            #expect(entry["file"] as? String == "\(serial).pkpass")
            #expect(try Self.passJSON(tmp.path("out1/\(serial).pkpass"))["serialNumber"] as? String == serial)
        }
    }

    @Test("--db with --web-service-url stores one row per issued pass with a distinct token that the pass carries")
    func databaseRows() throws {
        let tmp = try TempDir()
        let url = "https://example.com/passes"
        var csv = "memberName,points\n"
        for i in 0..<6 { csv += "Member \(i),\(i * 10)\n" }
        csv += "Broken,many\n"  // line 8: fails, so it is not stored
        try BatchTests.writeCSV(csv, to: tmp.path("in.csv"))
        let result = try CLI.passmint(
            Self.batchArgs(
                tmp, extra: ["--db", tmp.path("pm.db"), "--web-service-url", url, "--report", tmp.path("r.jsonl")]))
        #expect(result.status == 1, "one record failed: \(result.stderr)")
        let files = Self.pkpasses(tmp.path("out"))
        #expect(files.count == 6)

        let query = try CLI.run(
            "sqlite3",
            [
                "-separator", "|", tmp.path("pm.db"),
                "SELECT serial, auth_token, template, record FROM passes ORDER BY serial",
            ])
        #expect(query.status == 0, "\(query.stderr)")
        let rows = query.stdout.split(separator: "\n").map { $0.split(separator: "|", maxSplits: 3).map(String.init) }
        #expect(rows.count == 6)
        #expect(rows.map { "\($0[0]).pkpass" } == files)
        let tokens = rows.map { $0[1] }
        #expect(Set(tokens).count == tokens.count, "tokens repeat: \(tokens)")
        #expect(
            tokens.allSatisfy { $0.count >= 32 && $0.allSatisfy(\.isHexDigit) },
            "DESIGN: at least 32 hex characters: \(tokens)")
        // Every pass names the stored version of the folder (passmint-template:NAME@sha-256), stored once.
        let reference = rows.first?[2] ?? ""
        let digest = String(reference.dropFirst("passmint-template:loyalty@".count))
        #expect(reference.hasPrefix("passmint-template:loyalty@") && digest.count == 64, "\(reference)")
        #expect(rows.allSatisfy { $0[2] == reference }, "\(rows.map { $0[2] })")
        let stored = try CLI.run(
            "sqlite3", [tmp.path("pm.db"), "SELECT count(*) FROM template_files WHERE digest = '\(digest)'"])
        let onDisk = try CLI.run("find", [BatchTests.loyalty, "-type", "f", "!", "-name", ".*"])
        #expect(
            Int(stored.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
                == onDisk.stdout.split(separator: "\n").count, "\(stored.stdout) \(onDisk.stdout)")
        #expect(rows.allSatisfy { $0.count == 4 && $0[3].contains("Member ") })

        for row in rows {
            let pass = try Self.passJSON(tmp.path("out/\(row[0]).pkpass"))
            #expect(pass["serialNumber"] as? String == row[0])
            #expect(pass["webServiceURL"] as? String == url)
            #expect(pass["authenticationToken"] as? String == row[1])
        }
        let report = try BatchTests.report(tmp.path("r.jsonl"))
        let failed = report.filter { $0["status"] as? String == "failed" }
        #expect(failed.map { $0["line"] as? Int } == [8])
        if let failedSerial = failed.first?["serialNumber"] as? String {
            #expect(!rows.contains { $0[0] == failedSerial }, "a failed record was stored")
        }
    }

    @Test(
        "--resume with --db stores the kept passes again with their own tokens; a kept pass without the web service is issued anew"
    )
    func resumeStoresKeptPasses() throws {
        let tmp = try TempDir()
        let url = "https://example.com/passes"
        try BatchTests.writeCSV("memberName\nA\nB\nC\n", to: tmp.path("in.csv"))
        let db = ["--db", tmp.path("pm.db"), "--web-service-url", url]
        #expect(try CLI.passmint(Self.batchArgs(tmp, extra: db)).status == 0)
        let files = Self.pkpasses(tmp.path("out"))
        let tokens = try files.map { try Self.passJSON(tmp.path("out/\($0)"))["authenticationToken"] as? String }
        // As if the run had been killed after writing the files and before storing their rows.
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: tmp.path("pm.db") + suffix) }
        let resumed = try CLI.passmint(Self.batchArgs(tmp, extra: db + ["--resume"]))
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("3 already valid"), "\(resumed.stderr)")
        let rows = try CLI.run(
            "sqlite3", ["-separator", "|", tmp.path("pm.db"), "SELECT serial, auth_token FROM passes ORDER BY serial"])
        #expect(
            rows.stdout.split(separator: "\n").map(String.init)
                == zip(files, tokens).map { "\($0.dropLast(7))|\($1 ?? "-")" })

        // Passes issued without a web service cannot be served: with --db they are issued again, with tokens.
        #expect(try CLI.passmint(Self.batchArgs(tmp, out: "plain")).status == 0)
        let again = try CLI.passmint(
            Self.batchArgs(
                tmp, out: "plain", extra: ["--db", tmp.path("plain.db"), "--web-service-url", url, "--resume"]))
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("0 already valid"), "\(again.stderr)")
        for file in Self.pkpasses(tmp.path("plain")) {
            #expect(try Self.passJSON(tmp.path("plain/\(file)"))["webServiceURL"] as? String == url)
        }
    }

    @Test("a serialNumber used twice fails the later record, naming the earlier line; the first pass is kept")
    func duplicateSerialNumbers() throws {
        let tmp = try TempDir()
        try BatchTests.writeCSV("serialNumber,memberName\nS1,Ada\nS2,Grace\nS1,Bob\n", to: tmp.path("in.csv"))
        let result = try CLI.passmint(Self.batchArgs(tmp, extra: ["--report", tmp.path("r.jsonl")]))
        #expect(result.status == 1, "\(result.stderr)")
        let report = try BatchTests.report(tmp.path("r.jsonl"))
        #expect(report.map { $0["status"] as? String } == ["issued", "issued", "failed"])
        let error = report[2]["error"] as? String ?? ""
        #expect(error.contains("S1") && error.contains("line 2"), "\(error)")
        #expect(Self.pkpasses(tmp.path("out")) == ["S1.pkpass", "S2.pkpass"])
        #expect(Self.fieldValues(try Self.passJSON(tmp.path("out/S1.pkpass"))).values.contains("Ada"))
    }

    @Test("tiers mixed in one batch: every pass carries its own tier's thumbnails, listed with their SHA-1")
    func tierImagesPerRecord() throws {
        let tmp = try TempDir()
        let status = PackagePaths.template("status")
        let tiers = ["Silver", "Gold", "Platinum", "Gold", "Silver", "Platinum", "Gold", "Silver"]
        var csv = "serialNumber,tier\n"
        for (i, tier) in tiers.enumerated() { csv += "T\(i),\(tier)\n" }
        try BatchTests.writeCSV(csv, to: tmp.path("in.csv"))
        let result = try CLI.passmint(
            ["batch", "--template", status, "--csv", tmp.path("in.csv"), "--out", tmp.path("out"), "--jobs", "2"]
                + DevIdentity.signingArgs)
        #expect(result.status == 0, "\(result.stderr)")
        func sha1(_ command: String) throws -> String {
            String(try CLI.run("sh", ["-c", command + " | sha1sum"]).stdout.prefix(40))
        }
        for (i, tier) in tiers.enumerated() {
            let pass = tmp.path("out/T\(i).pkpass")
            for image in ["thumbnail.png", "thumbnail@2x.png", "thumbnail@3x.png"] {
                let inPass = try sha1("unzip -p '\(pass)' '\(image)'")
                #expect(
                    inPass == (try sha1("cat '\(status)/tiers/\(tier.lowercased())/\(image)'")),
                    "T\(i) \(tier) \(image)")
                let manifest = try CLI.run("unzip", ["-p", pass, "manifest.json"]).stdout
                #expect(manifest.contains("\"\(image)\" : \"\(inPass)\""), "T\(i) manifest lists \(image)")
            }
        }
        #expect(try BatchTests.opensslVerifies(tmp.path("out/T2.pkpass"), tmp: tmp))
    }

    @Test("on a terminal, stderr shows a progress bar with count, rate and ETA, redrawn in place")
    func progressBarOnTerminal() throws {
        let tmp = try TempDir()
        try BatchTests.writeCSV(header: "memberName", count: 40, to: tmp.path("in.csv")) { "M \($0)" }
        // script(1) runs the batch on a pseudo-terminal and copies what it prints to stdout.
        let command = ([CLI.binary] + Self.batchArgs(tmp)).map { "'\($0)'" }.joined(separator: " ")
        let result = try CLI.run("script", ["-qec", command, "/dev/null"])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(
            result.stdout.contains("\r["), "no bar redrawn with a carriage return: \(result.stdout.debugDescription)")
        #expect(result.stdout.contains("40/40"), "\(result.stdout.debugDescription)")
        #expect(result.stdout.contains("/s") && result.stdout.contains("ETA"), "\(result.stdout.debugDescription)")
        #expect(Self.pkpasses(tmp.path("out")).count == 40)
    }

    /// Root can mount a tmpfs here (CI and this machine); elsewhere the full-disk test cannot run.
    static let canMountTmpfs: Bool = {
        guard getuid() == 0, let tmp = try? TempDir() else { return false }
        guard (try? CLI.run("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", tmp.path]))?.status == 0 else {
            return false
        }
        _ = try? CLI.run("umount", [tmp.path])
        return true
    }()

    @Test(
        "a full disk stops the batch (exit 3) naming the line and --resume; after freeing space --resume finishes it",
        .enabled(if: canMountTmpfs, "mounting a 1 MB tmpfs needs root and mount rights"))
    func fullDiskStopsThenResumes() throws {
        let tmp = try TempDir()
        let mountPoint = tmp.path("small")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        try #require(try CLI.run("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint]).status == 0)
        defer { _ = try? CLI.run("umount", [mountPoint]) }
        try BatchTests.writeCSV(header: "memberName,points", count: 40, to: tmp.path("in.csv")) { "M \($0),\($0)" }
        let args =
            [
                "batch", "--template", BatchTests.loyalty, "--csv", tmp.path("in.csv"), "--out", mountPoint + "/out",
                "--jobs", "2", "--report", tmp.path("r.jsonl"),
            ] + DevIdentity.signingArgs
        let full = try CLI.passmint(args)
        #expect(full.status == 3, "\(full.stderr)")
        #expect(full.stderr.contains("stopped at line") && full.stderr.contains("--resume"), "\(full.stderr)")
        #expect(full.stderr.contains("No space left on device"), "\(full.stderr)")
        let kept = Self.pkpasses(mountPoint + "/out")
        #expect(!kept.isEmpty && kept.count < 40, "\(kept.count) passes fit in 1 MB")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: mountPoint + "/out").filter {
            $0.contains(".tmp-")
        }
        #expect(leftovers.isEmpty, "temporary files left on the full disk: \(leftovers)")
        for file in kept {
            #expect(try CLI.run("unzip", ["-tq", mountPoint + "/out/" + file]).status == 0, "\(file) is damaged")
        }
        // The report is complete for what was attempted and says why the rest failed.
        let report = try BatchTests.report(tmp.path("r.jsonl"))
        #expect(report.filter { $0["status"] as? String == "issued" }.count == kept.count)

        #expect(try CLI.run("mount", ["-o", "remount,size=64m", mountPoint]).status == 0)
        let resumed = try CLI.passmint(args + ["--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("\(kept.count) already valid"), "\(resumed.stderr)")
        #expect(Self.pkpasses(mountPoint + "/out").count == 40)
    }

    @Test("an output folder nothing can be written to stops the batch at its first record instead of failing every one")
    func unwritableOutputStops() throws {
        let tmp = try TempDir()
        try BatchTests.writeCSV(header: "memberName", count: 30, to: tmp.path("in.csv")) { "M \($0)" }
        // /proc/self/fdinfo exists, and no file can be created in it, even by root.
        let result = try CLI.passmint(
            [
                "batch", "--template", BatchTests.loyalty, "--csv", tmp.path("in.csv"), "--out", "/proc/self/fdinfo",
                "--report", tmp.path("r.jsonl"),
            ] + DevIdentity.signingArgs)
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("stopped at line 2 after 0 passes"), "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: tmp.path("r.jsonl")), "the report of what was attempted is kept")
    }

    @Test(
        "Ctrl-C stops after the records in progress: exit 130, report finished, no temporary files; --resume completes")
    func interruptStopsCleanly() throws {
        let tmp = try TempDir()
        let count = 1500
        try BatchTests.writeCSV(header: "memberName,points", count: count, to: tmp.path("in.csv")) { "M \($0),\($0)" }
        let args = Self.batchArgs(tmp, extra: ["--report", tmp.path("r.jsonl")])
        let stderrPath = tmp.path("batch.err")
        let process = try CLI.launch(args, stderrPath: stderrPath)
        waitUntil(timeout: 60) { !process.isRunning || Self.pkpasses(tmp.path("out")).count >= 20 }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let said = try String(contentsOfFile: stderrPath, encoding: .utf8)
        #expect(
            process.terminationReason == .exit && process.terminationStatus == 130,
            "\(process.terminationStatus): \(said)")
        #expect(said.contains("interrupted after line") && said.contains("--resume"), "\(said)")
        let made = Self.pkpasses(tmp.path("out"))
        #expect(made.count < count, "the batch finished before Ctrl-C")
        let report = try BatchTests.report(tmp.path("r.jsonl"))
        #expect(report.count == made.count && report.allSatisfy { $0["status"] as? String == "issued" })
        let names = try FileManager.default.contentsOfDirectory(atPath: tmp.path("out"))
        #expect(names.filter { $0.contains(".tmp-") }.isEmpty, "temporary files left behind")

        let resumed = try CLI.passmint(args + ["--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("\(made.count) already valid"), "\(resumed.stderr)")
        #expect(Self.pkpasses(tmp.path("out")).count == count)
    }

    @Test(
        "a store that refuses rows stops the batch (exit 3) with every attempted record reported; --resume stores them")
    func storeFailureStops() throws {
        let tmp = try TempDir()
        let db = ["--db", tmp.path("pm.db"), "--web-service-url", "https://example.com/passes"]
        // A first run creates the store; then a trigger makes every new row fail, as a full disk would.
        try BatchTests.writeCSV(header: "memberName", count: 1, to: tmp.path("one.csv")) { "First \($0)" }
        #expect(try CLI.passmint(Self.batchArgs(tmp, csv: "one.csv", out: "first", extra: db)).status == 0)
        let trigger =
            "CREATE TRIGGER refuse BEFORE INSERT ON passes BEGIN SELECT RAISE(ABORT, 'no room for rows'); END;"
        #expect(try CLI.run("sqlite3", [tmp.path("pm.db"), trigger]).status == 0)

        try BatchTests.writeCSV(header: "memberName", count: 300, to: tmp.path("in.csv")) { "M \($0)" }
        let args =
            [
                "batch", "--template", BatchTests.loyalty, "--csv", tmp.path("in.csv"), "--out", tmp.path("out"),
                "--jobs", "1", "--report", tmp.path("r.jsonl"),
            ] + db + DevIdentity.signingArgs
        let stopped = try CLI.passmint(args)
        #expect(stopped.status == 3, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("no room for rows") && stopped.stderr.contains("--resume"), "\(stopped.stderr)")
        let report = try BatchTests.report(tmp.path("r.jsonl"))
        #expect(report.count == 300, "every record attempted is reported")
        #expect(Self.pkpasses(tmp.path("out")).count == 300)

        #expect(try CLI.run("sqlite3", [tmp.path("pm.db"), "DROP TRIGGER refuse;"]).status == 0)
        let resumed = try CLI.passmint(args + ["--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let rows = try CLI.run("sqlite3", [tmp.path("pm.db"), "SELECT count(*) FROM passes"]).stdout
        #expect(rows.trimmingCharacters(in: .whitespacesAndNewlines) == "301")
    }

    @Test("--web-service-url without --db is refused as a usage error (exit 2) and makes nothing")
    func webServiceURLNeedsDB() throws {
        let tmp = try TempDir()
        try BatchTests.writeCSV("memberName\nAda\n", to: tmp.path("in.csv"))
        let result = try CLI.passmint(Self.batchArgs(tmp, extra: ["--web-service-url", "https://example.com/passes"]))
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("--web-service-url needs --db FILE"), "\(result.stderr)")
        #expect(Self.pkpasses(tmp.path("out")).isEmpty)
    }

    @Test("stderr that is not a terminal ends with a one-line summary of the counts, and no progress bar")
    func summaryLine() throws {
        let tmp = try TempDir()
        let csv = "memberName,points\nA,1\nB,two\nC,3\nD,4\n\"E\nE\",x\n"
        try BatchTests.writeCSV(csv, to: tmp.path("in.csv"))
        let failing = try CLI.passmint(Self.batchArgs(tmp))
        #expect(failing.status == 1)
        #expect(failing.stderr.hasSuffix("\n"))
        #expect(!failing.stderr.contains("\r"), "a progress bar was drawn on a pipe")
        let summary = failing.stderr.split(separator: "\n").map(String.init).first { $0.hasPrefix("batch: ") } ?? ""
        #expect(
            summary.hasPrefix("batch: 5 records, 3 issued, 0 updated, 0 unchanged, 0 already valid, 2 failed"),
            "\(summary)")
        #expect(summary.contains("--report"), "a summary with failures says how to see them: \(summary)")
        // The first failures follow the summary, each with its line.
        let after = failing.stderr.components(separatedBy: summary + "\n").last ?? ""
        #expect(after.hasPrefix("  line 3: "), "\(after)")
        #expect(after.contains("\n  line 6: "), "\(after)")
        #expect(Self.occurrences(of: "batch: ", in: failing.stderr) == 1)

        // All good: exit 0, and the summary is still the last line.
        try BatchTests.writeCSV("memberName\nA\nB\n", to: tmp.path("ok.csv"))
        let passing = try CLI.passmint(Self.batchArgs(tmp, csv: "ok.csv", out: "ok"))
        #expect(passing.status == 0, "\(passing.stderr)")
        #expect(
            Self.lastLine(passing.stderr).hasPrefix(
                "batch: 2 records, 2 issued, 0 updated, 0 unchanged, 0 already valid, 0 failed"))
        #expect(passing.stdout.isEmpty || !passing.stdout.contains("batch: "), "the summary belongs on stderr")
    }

    @Test("--report: one JSON object per record, in CSV order, each with the contract's keys")
    func reportContract() throws {
        let tmp = try TempDir()
        var bytes = Array("memberName,points,tier\n".utf8)  // 1
        for i in 0..<20 { bytes += Array("M\(i),\(i),Gold\n".utf8) }  // 2-21
        bytes += Array("Bad,x,Gold\n".utf8)  // 22: bad integer
        bytes += Array("\"Two\nLines\",1,Silver\n".utf8)  // 23-24
        bytes += [0xFF] + Array(",1,Gold\n".utf8)  // 25: not UTF-8
        bytes += Array("Too,few\n".utf8)  // 26: field count
        bytes += Array("Last,2,Bronze".utf8)  // 27, no final newline
        try Self.write(bytes, to: tmp.path("in.csv"))
        let result = try CLI.passmint(Self.batchArgs(tmp, extra: ["--report", tmp.path("r.jsonl")]))
        #expect(result.status == 1)
        let text = try String(contentsOfFile: tmp.path("r.jsonl"), encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        let report = try BatchTests.report(tmp.path("r.jsonl"))
        #expect(report.count == 25)
        #expect(report.map { $0["line"] as? Int } == Array(2...22) + [23, 25, 26, 27])
        let keys: Set<String> = ["line", "serialNumber", "file", "status", "error"]
        for entry in report {
            #expect(keys.isSubset(of: Set(entry.keys)), "missing keys in \(entry)")
            #expect(entry["line"] is Int)
            let status = entry["status"] as? String
            #expect(status == "issued" || status == "failed")
            if status == "issued" {
                #expect(entry["error"] is NSNull)
                let serial = try #require(entry["serialNumber"] as? String)
                #expect(entry["file"] as? String == "\(serial).pkpass")
                #expect(FileManager.default.fileExists(atPath: tmp.path("out/\(serial).pkpass")))
            } else {
                #expect(entry["file"] is NSNull)
                #expect((entry["error"] as? String)?.isEmpty == false)
            }
        }
        let failedLines = report.filter { $0["status"] as? String == "failed" }.map { $0["line"] as? Int }
        #expect(failedLines == [22, 25, 26])
        #expect(Self.pkpasses(tmp.path("out")).count == 22)
    }
}
