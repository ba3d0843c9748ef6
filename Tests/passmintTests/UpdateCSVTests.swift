import Foundation
import Testing

/// A SQLite store of `count` loyalty passes (S00000…), each registered on two devices of its own, and a CSV of one
/// row per pass in which every tenth row moves the pass to Gold and the others repeat the stored values.
struct BulkUpdateStore {
    let tmp: TempDir
    let count: Int
    var db: String { tmp.path("store.db") }
    var csv: String { tmp.path("changes.csv") }

    static let loyalty = PackagePaths.template("loyalty")

    /// Issues one real pass with `batch --db`, then copies its row with `sqlite3` (only the serial, token and
    /// points differ), so a store of thousands of passes takes a second, not a batch run.
    init(count: Int) throws {
        tmp = try TempDir()
        self.count = count
        try "serialNumber,tier,points\nS00000,Silver,0\n".write(
            toFile: tmp.path("one.csv"), atomically: true, encoding: .utf8)
        let batch = try CLI.passmint(
            [
                "batch", "--template", Self.loyalty, "--csv", tmp.path("one.csv"), "--out", tmp.path("out"),
                "--db", db, "--web-service-url", "https://passes.example.com",
            ] + DevIdentity.signingArgs)
        guard batch.status == 0 else { throw ServeFailure("batch: \(batch.stderr)") }
        _ = try ServeTools.sqlite(
            db,
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count - 1))
            INSERT INTO passes (serial, pass_type, template, record, auth_token, tag, modified_at, voided,
                web_service_url, compatible_pass)
            SELECT printf('S%05d', i), pass_type, template, json_set(record, '$.points', CAST(i AS TEXT)),
                auth_token || printf('%05d', i), tag + i, modified_at, voided, web_service_url, compatible_pass
            FROM passes, n WHERE serial = 'S00000';
            UPDATE meta SET value = (SELECT max(tag) FROM passes) WHERE key = 'tag';
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < \(2 * count - 1))
            INSERT INTO devices (device_library_id, push_token, updated_at)
            SELECT printf('dev%06d', i), printf('%064x', i), 0 FROM n;
            INSERT INTO registrations (device, pass_type, serial, created_at)
            SELECT printf('dev%06d', i), '\(DevIdentity.passTypeIdentifier)', printf('S%05d', i / 2), 0
            FROM (WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < \(2 * count - 1))
                SELECT i FROM n);
            """)
        var text = "serialNumber,tier,points\n"
        for i in 0..<count { text += "S\(String(format: "%05d", i)),\(i % 10 == 0 ? "Gold" : "Silver"),\(i)\n" }
        try text.write(toFile: csv, atomically: true, encoding: .utf8)
    }

    /// The passes the CSV changes.
    var changedCount: Int { (count + 9) / 10 }

    func sqlite(_ sql: String) throws -> String { try ServeTools.sqlite(db, sql) }

    /// `update --csv` with the dev identity.
    func updateArguments(_ extra: [String] = []) -> [String] {
        ["update", "--csv", csv, "--db", db] + extra + DevIdentity.signingArgs
    }

    /// Devices of Gold passes whose outbox rows for their pass are not exactly one; outbox rows of passes still
    /// Silver; (token, serial, tag) triples queued more than once. All three must be 0.
    func exactlyOnceViolations() throws -> (wrongCount: Int, unchangedPushed: Int, duplicates: Int) {
        let wrong = try sqlite(
            """
            SELECT count(*) FROM registrations r JOIN devices d ON d.device_library_id = r.device
            JOIN passes p ON p.serial = r.serial WHERE json_extract(p.record, '$.tier') = 'Gold'
            AND (SELECT count(*) FROM push_outbox o WHERE o.push_token = d.push_token AND o.serial = r.serial) <> 1
            """)
        let unchanged = try sqlite(
            """
            SELECT count(*) FROM push_outbox o JOIN passes p ON p.serial = o.serial
            WHERE json_extract(p.record, '$.tier') <> 'Gold'
            """)
        let duplicates = try sqlite(
            """
            SELECT count(*) FROM (SELECT 1 FROM push_outbox GROUP BY push_token, serial, tag HAVING count(*) > 1)
            """)
        return (Int(wrong) ?? -1, Int(unchanged) ?? -1, Int(duplicates) ?? -1)
    }
}

@Suite("update --csv (end to end)")
struct UpdateCSVTests {
    static func report(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test("5,000 rows, a tenth changing tier: one outbox row per device of each changed pass, none for the rest")
    func tenthChanges() throws {
        let store = try BulkUpdateStore(count: 5000)
        let tagsBefore = try store.sqlite("SELECT group_concat(tag) FROM passes WHERE serial IN ('S00001', 'S04999')")
        let report = store.tmp.path("report.jsonl")
        let run = try CLI.passmint(store.updateArguments(["--report", report]))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderr.contains("5000 rows, 500 changed, 4500 unchanged, 0 failed, 1000 pushes queued"), "\(run.stderr)"
        )
        #expect(try store.sqlite("SELECT count(*), count(DISTINCT push_token) FROM push_outbox") == "1000|1000")
        let violations = try store.exactlyOnceViolations()
        #expect(violations == (0, 0, 0))
        #expect(try store.sqlite("SELECT count(*) FROM passes WHERE json_extract(record, '$.tier') = 'Gold'") == "500")
        // Unchanged passes keep their version.
        #expect(
            try store.sqlite("SELECT group_concat(tag) FROM passes WHERE serial IN ('S00001', 'S04999')") == tagsBefore)
        let lines = try Self.report(report)
        #expect(lines.count == 5000)
        #expect(lines.filter { $0["status"] as? String == "changed" }.count == 500)
        #expect(lines.filter { $0["status"] as? String == "unchanged" }.count == 4500)
        #expect(lines.first { $0["serialNumber"] as? String == "S00010" }?["pushes"] as? Int == 2)
        #expect(lines.first { $0["serialNumber"] as? String == "S00011" }?["pushes"] as? Int == 0)
        #expect(Set(lines.compactMap { $0["line"] as? Int }) == Set(2...5001))

        // The same file again, without --resume: every row is now unchanged, nothing is pushed again.
        let again = try CLI.passmint(store.updateArguments())
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("0 changed, 5000 unchanged"), "\(again.stderr)")
        #expect(try store.sqlite("SELECT count(*) FROM push_outbox") == "1000")
    }

    @Test(
        "SIGKILL halfway: what is stored is exactly the committed chunks; --resume finishes with nothing pushed twice")
    func killAndResume() throws {
        let store = try BulkUpdateStore(count: 5000)
        let process = try CLI.launch(store.updateArguments(["--chunk-size", "10"]))
        // Killed once a few chunks are stored and the job is far from done.
        waitUntil(timeout: 120) {
            guard process.isRunning else { return true }
            let position = Int((try? store.sqlite("SELECT position FROM bulk_progress")) ?? "") ?? 0
            return position >= 100
        }
        try #require(process.isRunning, "update --csv finished before it could be killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        let position = try #require(Int(try store.sqlite("SELECT position FROM bulk_progress")))
        #expect(position >= 100 && position < 5001, "killed at line \(position)")
        // Rows up to the committed position are stored with their pushes, none after it: row of line L is pass
        // L - 2, and every tenth pass changes.
        let changedSoFar = (0...(position - 2)).filter { $0 % 10 == 0 }.count
        #expect(try store.sqlite("SELECT count(*) FROM push_outbox") == String(2 * changedSoFar))
        #expect(
            try store.sqlite("SELECT count(*) FROM passes WHERE json_extract(record, '$.tier') = 'Gold'")
                == String(changedSoFar))

        let resumed = try CLI.passmint(store.updateArguments(["--resume", "--chunk-size", "10"]))
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("resuming after line \(position)"), "\(resumed.stderr)")
        #expect(resumed.stderr.contains("\(500 - changedSoFar) changed"), "\(resumed.stderr)")
        #expect(try store.sqlite("SELECT count(*) FROM push_outbox") == "1000")
        let violations = try store.exactlyOnceViolations()
        #expect(violations == (0, 0, 0))
    }

    @Test("SIGTERM finishes the current chunk, prints the position and exits 130; --resume continues there")
    func terminateAndResume() throws {
        let store = try BulkUpdateStore(count: 3000)
        let stderrPath = store.tmp.path("update.err")
        let process = try CLI.launch(store.updateArguments(["--chunk-size", "10"]), stderrPath: stderrPath)
        waitUntil(timeout: 120) {
            !process.isRunning || Int((try? store.sqlite("SELECT position FROM bulk_progress")) ?? "") ?? 0 > 300
        }
        try #require(process.isRunning, "update --csv finished before it could be stopped")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        let message = try String(contentsOfFile: stderrPath, encoding: .utf8)
        let position = try store.sqlite("SELECT position FROM bulk_progress")
        #expect(message.contains("interrupted after line \(position);"), "\(message)")
        let resumed = try CLI.passmint(store.updateArguments(["--resume"]))
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("resuming after line \(position)"), "\(resumed.stderr)")
        #expect(try store.sqlite("SELECT count(*) FROM push_outbox") == "600")
        let violations = try store.exactlyOnceViolations()
        #expect(violations == (0, 0, 0))
    }

    @Test("bad rows are reported by line and column and skipped; the others are stored; exit 1")
    func badRows() throws {
        let store = try BulkUpdateStore(count: 10)
        try """
        serialNumber,tier,points
        S00001,Gold,
        S00002,Diamond,5
        NOPE,Gold,1
        S00003,Silver,many
        "S00004",Gold,"1,5"
        S00005,Gold
        S00006,,12

        """.write(toFile: store.csv, atomically: true, encoding: .utf8)
        let report = store.tmp.path("bad.jsonl")
        let run = try CLI.passmint(store.updateArguments(["--report", report]))
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("line 3, column tier:"), "\(run.stderr)")
        #expect(run.stderr.contains("line 5, column points:"), "\(run.stderr)")
        let lines = try Self.report(report)
        let byLine = Dictionary(uniqueKeysWithValues: lines.map { ($0["line"] as! Int, $0) })
        #expect(byLine[2]?["status"] as? String == "changed")
        #expect(byLine[3]?["column"] as? String == "tier")
        #expect(byLine[4]?["column"] as? String == "serialNumber")
        #expect((byLine[4]?["error"] as? String)?.contains("NOPE") == true)
        #expect(byLine[5]?["column"] as? String == "points")
        #expect(byLine[6]?["column"] as? String == "points")
        #expect((byLine[7]?["error"] as? String)?.contains("2 field(s) but the header has 3") == true)
        // An empty cell keeps the stored value: S00006 changes points only.
        #expect(byLine[8]?["status"] as? String == "changed")
        #expect(
            try store.sqlite(
                "SELECT json_extract(record, '$.tier') || json_extract(record, '$.points') FROM passes WHERE serial = 'S00006'"
            ) == "Silver12")
        #expect(try store.sqlite("SELECT count(DISTINCT serial) FROM push_outbox") == "2")

        // A header without serialNumber is refused before anything is stored.
        try "tier\nGold\n".write(toFile: store.csv, atomically: true, encoding: .utf8)
        let refused = try CLI.passmint(store.updateArguments())
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("no serialNumber column"), "\(refused.stderr)")
    }
}

@Suite("update --csv on PostgreSQL (end to end)")
struct UpdateCSVPostgresTests {
    /// Gold passes' devices without exactly one outbox row, outbox rows of Silver passes, duplicate
    /// (token, serial, tag) rows: read with psql.
    static func violations(_ url: String) throws -> String {
        try TestPostgres.psql(
            url,
            """
            SELECT
              (SELECT count(*) FROM registrations r JOIN devices d ON d.device_library_id = r.device
                 JOIN passes p ON p.serial = r.serial WHERE p.record::json->>'tier' = 'Gold'
                 AND (SELECT count(*) FROM push_outbox o WHERE o.push_token = d.push_token AND o.serial = r.serial) <> 1)
              || ' ' || (SELECT count(*) FROM push_outbox o JOIN passes p ON p.serial = o.serial
                 WHERE p.record::json->>'tier' <> 'Gold')
              || ' ' || (SELECT count(*) FROM (SELECT 1 FROM push_outbox GROUP BY push_token, serial, tag
                 HAVING count(*) > 1) AS d)
            """)
    }

    @Test(
        "2,000 rows: SIGKILL halfway, --resume; exactly one outbox row per device of each changed pass (psql)",
        .enabled(if: TestPostgres.url != nil, Comment(rawValue: TestPostgres.skipReason)))
    func killAndResume() throws {
        let store = try BulkUpdateStore(count: 2000)
        let url = try TestPostgres.freshSchema()
        // The URL carries the test server's password: it goes through the environment, never the command line.
        let environment = ["PASSMINT_DATABASE_URL": url]
        let migrated = try CLI.passmint(["migrate", "--from-sqlite", store.db], environment: environment)
        try #require(migrated.status == 0, "\(migrated.stderr)")
        #expect(try TestPostgres.psql(url, "SELECT count(*) FROM registrations") == "4000")
        let arguments = ["update", "--csv", store.csv, "--chunk-size", "10"] + DevIdentity.signingArgs
        let process = try CLI.launch(arguments, environment: environment)
        waitUntil(timeout: 120) {
            !process.isRunning
                || Int((try? TestPostgres.psql(url, "SELECT coalesce(max(position), 0) FROM bulk_progress")) ?? "")
                    ?? 0 >= 100
        }
        try #require(process.isRunning, "update --csv finished before it could be killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let position = try #require(Int(try TestPostgres.psql(url, "SELECT position FROM bulk_progress")))
        let changedSoFar = (0...(position - 2)).filter { $0 % 10 == 0 }.count
        #expect(try TestPostgres.psql(url, "SELECT count(*) FROM push_outbox") == String(2 * changedSoFar))
        #expect(try Self.violations(url) == "0 0 0")

        let resumed = try CLI.passmint(arguments + ["--resume"], environment: environment)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("resuming after line \(position)"), "\(resumed.stderr)")
        #expect(try TestPostgres.psql(url, "SELECT count(*), count(DISTINCT push_token) FROM push_outbox") == "400|400")
        #expect(try Self.violations(url) == "0 0 0")
        let again = try CLI.passmint(arguments, environment: environment)
        #expect(again.stderr.contains("0 changed, 2000 unchanged"), "\(again.stderr)")
        #expect(try TestPostgres.psql(url, "SELECT count(*) FROM push_outbox") == "400")
    }
}
