import Foundation
import Testing

/// Install figures end to end: passes issued with `batch --db` and `generate`, registrations and unregistrations
/// through a running `serve` (curl), a dead token answered by the APNs stand-in, then `passmint stats`, the admin
/// route and `/metrics` must all show exactly what the script did today.
@Suite("serve: install figures (end to end)", .serialized)
struct ServeStatsTests {
    @Test(
        "stats --json, GET /admin/v1/stats and /metrics count exactly the script's issues, adds, removals and devices",
        .enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing))
    func todaysFigures() throws {
        let admin = (0..<4).map { _ in UUID().uuidString.replacingOccurrences(of: "-", with: "") }.joined()
        let dayBefore = Self.utcDay(Date())
        let f = try ServeFixture(python: TestTools.pythonWithH2, environment: ["PASSMINT_ADMIN_TOKEN": admin])
        defer { f.stop() }

        // Issued: ST-1…ST-3 by batch, ST-4 by generate, ST-1 stored again (no new issue).
        try "serialNumber,memberName,tier\nST-1,Ada,Silver\nST-2,Bob,Gold\nST-3,Cy,Silver\n".write(
            toFile: f.tmp.path("members.csv"), atomically: true, encoding: .utf8)
        let batch = try CLI.passmint(
            [
                "batch", "--template", ServeTools.status, "--csv", f.tmp.path("members.csv"), "--out",
                f.tmp.path("passes"), "--db", f.db, "--web-service-url", f.base + "/",
            ] + DevIdentity.signingArgs)
        try #require(batch.status == 0, "\(batch.stderr)")
        _ = try f.generate(serial: "ST-4")
        _ = try f.generate(serial: "ST-1")
        var tokens: [String: String] = [:]
        for line in try ServeTools.sqlite(f.db, "SELECT serial || ' ' || auth_token FROM passes").split(separator: "\n")
        {
            let parts = line.split(separator: " ")
            tokens[String(parts[0])] = String(parts[1])
        }
        func register(_ device: String, _ serial: String, _ push: String) throws -> Int {
            try f.register(device: device, serial: serial, token: tokens[serial]!, pushToken: push).status
        }
        func unregister(_ device: String, _ serial: String) throws -> Int {
            try f.http(
                "DELETE", "/v1/devices/\(device)/registrations/\(ServeTools.passType)/\(serial)",
                headers: ["Authorization": "ApplePass \(tokens[serial]!)"]
            ).status
        }
        let dead = pushToken("410", 7)
        // Added: ST-1 (A, then B too), ST-2 (A), ST-3 (C with a token APNs will call dead, and D).
        #expect(try register("devA", "ST-1", pushToken("aa", 1)) == 201)
        #expect(try register("devB", "ST-1", pushToken("bb", 2)) == 201)
        #expect(try register("devA", "ST-2", pushToken("aa", 1)) == 201)
        #expect(try register("devA", "ST-1", pushToken("aa", 1)) == 200)
        #expect(try register("devC", "ST-3", dead) == 201)
        #expect(try register("devD", "ST-3", pushToken("dd", 4)) == 201)
        // B leaves ST-1 (A stays: no removal); A leaves ST-2 (its last device: removed); D leaves ST-3.
        #expect(try unregister("devB", "ST-1") == 200)
        #expect(try unregister("devA", "ST-2") == 200)
        #expect(try unregister("devD", "ST-3") == 200)
        // ST-3's last device goes when APNs answers 410 to the push of an update: removed.
        let update = try f.update("ST-3", ["tier=Gold"])
        try #require(update.status == 0, "\(update.stderr)")
        let dropped = try waitUntil(timeout: 20) {
            try ServeTools.sqlite(f.db, "SELECT count(*) FROM push_history WHERE result = 'dropped'") == "1"
        }
        try #require(dropped, "the dead token was never dropped: \(f.serve.stderr)")
        // B comes back on ST-2: added again.
        #expect(try register("devB", "ST-2", pushToken("bb", 2)) == 201)
        #expect(
            try ServeTools.sqlite(f.db, "SELECT device || ' ' || serial FROM registrations ORDER BY 1")
                == "devA ST-1\ndevB ST-2")

        let dayAfter = Self.utcDay(Date())
        let stats = try CLI.passmint(["stats", "--db", f.db, "--json"])
        try #require(stats.status == 0, "\(stats.stderr)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any], "\(stats.stdout)")
        let days = try #require(report["days"] as? [[String: Any]])
        try #require(days.count == 1, "\(stats.stdout)")
        let day = try #require(days[0]["day"] as? String)
        #expect(day == dayBefore || day == dayAfter)
        // The documented shape, keys sorted, byte for byte (no Google Wallet callbacks here).
        let noGoogle = #"{"active":0,"deleted":0,"saved":0,"silentUpdates":0}"#
        let expected =
            #"{"days":[{"activeDevices":2,"added":4,"day":"\#(day)","google":\#(noGoogle),"issued":4,"removed":2,"#
            + #""template":"status"}],"totals":[{"activeDevices":2,"added":4,"google":\#(noGoogle),"issued":4,"#
            + #""removed":2,"template":"status"}]}"#
        #expect(stats.stdout == expected + "\n")

        // The table says the same.
        let table = try CLI.passmint(["stats", "--db", f.db, "--template", "status"])
        #expect(table.status == 0)
        let rows = table.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(rows.contains(["status", day, "4", "4", "2", "2", "0", "0", "0", "0"]), "\(table.stdout)")
        #expect(rows.contains(["status", "total", "4", "4", "2", "2", "0", "0", "0", "0"]), "\(table.stdout)")

        // The admin route answers the same JSON; a bad day is a 400 naming the parameter; no token is a 401.
        let bearer = ["Authorization": "Bearer \(admin)"]
        let served = try f.http("GET", "/admin/v1/stats?from=\(day)&to=\(day)", headers: bearer)
        #expect(served.status == 200, "\(served.text)")
        #expect(served.text == expected)
        #expect(served.headers["content-type"]?.hasPrefix("application/json") == true)
        let other = try f.http("GET", "/admin/v1/stats?template=loyalty", headers: bearer)
        #expect(other.status == 200 && other.text == #"{"days":[],"totals":[]}"#, "\(other.text)")
        let bad = try f.http("GET", "/admin/v1/stats?from=2026-02-30", headers: bearer)
        #expect(bad.status == 400 && bad.text.contains("from=2026-02-30"), "\(bad.text)")
        #expect(try f.http("GET", "/admin/v1/stats").status == 401)

        // /metrics: the running totals.
        let metrics = try f.http("GET", "/metrics")
        #expect(metrics.status == 200)
        for line in [
            #"passmint_passes_issued_total{template="status"} 4"#, #"passmint_passes_added_total{template="status"} 4"#,
            #"passmint_passes_removed_total{template="status"} 2"#, #"passmint_active_devices{template="status"} 2"#,
        ] {
            #expect(metrics.text.split(separator: "\n").contains(Substring(line)), "\(line) missing: \(metrics.text)")
        }
        #expect(!f.serve.stderr.contains(admin), "the admin token leaked into the log")
    }

    @Test("stats refuses a --db file that does not exist (and creates none) and a day that is not one")
    func badArguments() throws {
        let tmp = try TempDir()
        let missing = try CLI.passmint(["stats", "--db", tmp.path("nope.db")])
        #expect(missing.status == 3 && missing.stderr.contains("nope.db"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tmp.path("nope.db")))
        let badDay = try CLI.passmint(["stats", "--db", tmp.path("nope.db"), "--from", "2026-13-01"])
        #expect(badDay.status == 2 && badDay.stderr.contains("--from 2026-13-01"), "\(badDay.stderr)")
        let reversed = try CLI.passmint(["stats", "--from", "2026-12-02", "--to", "2026-12-01"])
        #expect(reversed.status == 2 && reversed.stderr.contains("after"), "\(reversed.stderr)")
    }

    private static func utcDay(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }
}
