import Foundation
import Testing

/// `batch --db|--postgres` without `--out`: records go into the store with their tokens and links, no pass file is
/// written, and `passmint serve` renders and signs each pass on its first download. Checked with the real binary,
/// sqlite3 / psql, curl and `openssl cms -verify`.
@Suite("batch: store-only issuance (end to end)", .serialized)
struct BatchStoreOnlyTests {
    static let tiers = ["Bronze", "Silver", "Gold"]
    /// Records in a store-only window with `--jobs 1` (`BatchJob.windowSize`).
    static let window = 8_192

    /// A loyalty CSV of `count` members, the tiers in turn.
    static func writeMembers(_ count: Int, to path: String, bad: Set<Int> = []) throws {
        try BatchTests.writeCSV(header: "memberName,memberNumber,points,tier", count: count, to: path) {
            "Member \($0),M\($0),\(bad.contains($0) ? "many" : String($0 * 3)),\(tiers[$0 % 3])"
        }
    }

    static func storeOnlyArgs(csv: String, store: [String], report: String, base: String, jobs: Int = 2) -> [String] {
        ["batch", "--template", BatchTests.loyalty, "--csv", csv, "--report", report, "--jobs", "\(jobs)"] + store
            + ["--web-service-url", base + "/"] + DevIdentity.signingArgs
    }

    /// Downloads `serial` with its token through `serve` and checks the pass: 200, `openssl cms -verify`, and a
    /// pass.json carrying the serial, the token and the record's values.
    static func downloadsVerifiedPass(_ f: ServeFixture, serial: String, token: String, member: String) throws -> Bool {
        let reply = try f.download(serial: serial, token: token)
        guard reply.status == 200 else { return false }
        let file = f.tmp.path("\(serial).pkpass")
        try reply.body.write(to: URL(fileURLWithPath: file))
        guard try ServeTools.opensslVerifies(file, tmp: f.tmp) else { return false }
        let pass = try ServeTools.passJSON(file)
        let text = String(decoding: try JSONSerialization.data(withJSONObject: pass), as: UTF8.self)
        return pass["serialNumber"] as? String == serial && pass["authenticationToken"] as? String == token
            && text.contains(member)
    }

    @Test("records are stored with tokens and links, no file is written, every pass downloads verified through serve")
    func storeOnly() throws {
        let f = try ServeFixture(python: nil)
        defer { f.stop() }
        let count = 60
        let bad: Set<Int> = [7, 31]
        try Self.writeMembers(count, to: f.tmp.path("members.csv"), bad: bad)
        let run = try CLI.passmint(
            Self.storeOnlyArgs(
                csv: f.tmp.path("members.csv"), store: f.storeArguments, report: f.tmp.path("report.jsonl"),
                base: f.base))
        #expect(run.status == 1, "two bad records: \(run.stderr)")
        #expect(run.stderr.contains("\(count - bad.count) issued"), "\(run.stderr)")

        let report = try BatchTests.report(f.tmp.path("report.jsonl"))
        #expect(report.count == count)
        let failed = report.filter { $0["status"] as? String == "failed" }
        #expect(failed.compactMap { $0["line"] as? Int }.sorted() == bad.map { $0 + 2 }.sorted())
        #expect(failed.allSatisfy { ($0["error"] as? String)?.contains("points") == true }, "\(failed)")
        let issued = report.filter { $0["status"] as? String == "issued" }
        #expect(issued.count == count - bad.count)
        #expect(issued.allSatisfy { $0["file"] is NSNull }, "store-only rows name no file")
        // No pass file anywhere: not in the folder the batch ran from, nor next to the CSV.
        let written = try FileManager.default.subpathsOfDirectory(atPath: f.tmp.path).filter { $0.hasSuffix(".pkpass") }
        #expect(written.isEmpty, "\(written)")

        #expect(try f.count("passes") == count - bad.count)
        #expect(try f.count("pass_links") == count - bad.count)
        #expect(try f.count("install_passes") == count - bad.count, "install figures count each pass once")
        let dayIssued = try ServeTools.sqlite(f.db, "SELECT sum(issued) FROM install_days")
        #expect(dayIssued == "\(count - bad.count)")

        // Every record downloads through serve as a verified pass, by token and by its distribution link.
        for row in issued {
            let serial = try #require(row["serialNumber"] as? String)
            let token = try ServeTools.sqlite(f.db, "SELECT auth_token FROM passes WHERE serial = '\(serial)'")
            let line = try #require(row["line"] as? Int)
            #expect(
                try Self.downloadsVerifiedPass(f, serial: serial, token: token, member: "Member \(line - 2)"),
                "\(serial) (line \(line))")
        }
        for row in issued.shuffled().prefix(8) {
            let link = try #require(row["link"] as? String)
            #expect(try ServeLinksTests.servesVerifiedPass(f, link), "\(link)")
        }

        // The same CSV again: every stored record is unchanged, nothing new stored.
        let again = try CLI.passmint(
            Self.storeOnlyArgs(
                csv: f.tmp.path("members.csv"), store: f.storeArguments, report: f.tmp.path("again.jsonl"),
                base: f.base))
        #expect(again.stderr.contains("\(count - bad.count) unchanged"), "\(again.stderr)")
        #expect(try f.count("passes") == count - bad.count)
    }

    @Test("shards of one CSV fill one store; each record once")
    func shards() throws {
        let tmp = try TempDir()
        let count = 90
        try Self.writeMembers(count, to: tmp.path("members.csv"))
        for shard in ["1/3", "2/3", "3/3"] {
            let run = try CLI.passmint(
                Self.storeOnlyArgs(
                    csv: tmp.path("members.csv"), store: ["--db", tmp.path("store.db")],
                    report: tmp.path("report-\(shard.prefix(1)).jsonl"), base: "https://passes.example.com")
                    + ["--shard", shard])
            #expect(run.status == 0, "\(shard): \(run.stderr)")
        }
        let rows = try ServeTools.sqlite(tmp.path("store.db"), "SELECT count(*), count(DISTINCT serial) FROM passes")
        #expect(rows == "\(count)|\(count)")
        let lines = try ["1", "2", "3"].flatMap { try BatchTests.report(tmp.path("report-\($0).jsonl")) }
        #expect(Set(lines.compactMap { $0["line"] as? Int }).count == count)
    }

    @Test("killed with SIGKILL and resumed: every record stored once, with one link and one install count")
    func killAndResume() throws {
        let tmp = try TempDir()
        let count = 50_000
        try Self.writeMembers(count, to: tmp.path("members.csv"))
        let db = tmp.path("store.db")
        let args =
            Self.storeOnlyArgs(
                csv: tmp.path("members.csv"), store: ["--db", db], report: tmp.path("report.jsonl"),
                base: "https://passes.example.com", jobs: 1)
        let process = try CLI.launch(args)
        let stored = {
            Int((try? ServeTools.sqlite(db, "SELECT count(*) FROM passes")) ?? "") ?? 0
        }
        waitUntil(timeout: 120) { !process.isRunning || stored() >= 2_000 }
        var killed = false
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            killed = process.terminationReason == .uncaughtSignal
        }
        let before = stored()
        #expect(killed && before < count, "the batch ended before the kill (\(before) stored)")
        let resumed = try CLI.passmint(args + ["--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")

        let rows = try ServeTools.sqlite(db, "SELECT count(*), count(DISTINCT serial) FROM passes")
        #expect(rows == "\(count)|\(count)")
        #expect(try ServeTools.sqlite(db, "SELECT count(*) FROM pass_links") == "\(count)")
        #expect(try ServeTools.sqlite(db, "SELECT count(*) FROM install_passes") == "\(count)")
        #expect(try ServeTools.sqlite(db, "SELECT sum(issued) FROM install_days") == "\(count)")
        let report = try BatchTests.report(tmp.path("report.jsonl"))
        #expect(report.count == count)
        #expect(Set(report.compactMap { $0["line"] as? Int }).count == count, "a record reported twice")
        let kept = report.filter { $0["resumed"] as? Bool == true }
        #expect(
            kept.count >= before - 2 * BatchStoreOnlyTests.window && kept.count <= before,
            "\(kept.count) kept of \(before) stored")
        #expect(report.allSatisfy { $0["status"] as? String != "failed" })
        // Records issued by the resumed run carry a link; those the killed run stored keep theirs in the store.
        #expect(report.filter { $0["resumed"] == nil }.allSatisfy { $0["link"] is String })
    }

    @Test(
        "PostgreSQL: records stored with links, no file written, passes download verified",
        .enabled(if: TestPostgres.url != nil, Comment(rawValue: TestPostgres.skipReason)))
    func postgres() throws {
        let f = try ServeFixture(python: nil, postgres: try TestPostgres.freshSchema())
        defer { f.stop() }
        let count = 30
        try Self.writeMembers(count, to: f.tmp.path("members.csv"))
        let run = try CLI.passmint(
            Self.storeOnlyArgs(
                csv: f.tmp.path("members.csv"), store: f.storeArguments, report: f.tmp.path("report.jsonl"),
                base: f.base))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try f.count("passes") == count)
        #expect(try f.count("pass_links") == count)
        let report = try BatchTests.report(f.tmp.path("report.jsonl"))
        for row in report.shuffled().prefix(10) {
            let serial = try #require(row["serialNumber"] as? String)
            let postgres = try #require(f.postgres)
            let token = try TestPostgres.psql(postgres, "SELECT auth_token FROM passes WHERE serial = '\(serial)'")
            let line = try #require(row["line"] as? Int)
            #expect(try Self.downloadsVerifiedPass(f, serial: serial, token: token, member: "Member \(line - 2)"))
            let link = try #require(row["link"] as? String)
            #expect(try ServeLinksTests.servesVerifiedPass(f, link), "\(link)")
        }
    }

    @Test("usage: without --out a store and a web service URL are needed, and --bundle is refused")
    func usage() throws {
        let tmp = try TempDir()
        try Self.writeMembers(3, to: tmp.path("m.csv"))
        let base = ["batch", "--template", BatchTests.loyalty, "--csv", tmp.path("m.csv")] + DevIdentity.signingArgs
        let noStore = try CLI.passmint(base)
        #expect(noStore.status == 2 && noStore.stderr.contains("--out DIR"), "\(noStore.stderr)")
        let noURL = try CLI.passmint(base + ["--db", tmp.path("s.db")])
        #expect(noURL.status == 2 && noURL.stderr.contains("--web-service-url"), "\(noURL.stderr)")
        let bundle = try CLI.passmint(
            base + ["--db", tmp.path("s.db"), "--web-service-url", "https://passes.example.com/", "--bundle"])
        #expect(bundle.status == 2 && bundle.stderr.contains("--bundle"), "\(bundle.stderr)")
        // A Google object is made beside its pass file; store-only makes none, so --google needs --out.
        let key = try GoogleWalletSupport.makeKeyFile(in: tmp)
        let google = try CLI.passmint(
            base + [
                "--db", tmp.path("s.db"), "--web-service-url", "https://passes.example.com/", "--google",
                "--google-image-base", "https://passes.example.com", "--google-class-published",
            ],
            environment: [
                "GOOGLE_APPLICATION_CREDENTIALS": key, "PASSMINT_GOOGLE_ISSUER_ID": GoogleWalletSupport.issuerID,
            ])
        #expect(google.status == 2 && google.stderr.contains("--google") && google.stderr.contains("--out DIR"))
        #expect(!FileManager.default.fileExists(atPath: tmp.path("s.db")), "\(google.stderr)")
    }
}
