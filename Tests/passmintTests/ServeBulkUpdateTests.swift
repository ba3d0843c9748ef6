import Foundation
import Testing

/// `POST /admin/v1/updates` end to end: curl sends the rows, the job runs in `serve`, any instance answers its
/// status, and the APNs stand-in receives exactly one push per device of each changed pass.
@Suite("serve: bulk updates over the admin API (end to end)", .serialized)
struct ServeBulkUpdateTests {
    static let admin = String(repeating: "b7", count: 24)

    /// `count` status passes BU000… (one issued with `generate --db`, the rest copies of its row made with
    /// sqlite3), each registered on two devices with push tokens `pushToken("b", i)`.
    static func populate(_ f: ServeFixture, count: Int) throws {
        _ = try f.generate(serial: "BU000", set: ["tier=Silver", "milesToNextTier=0"])
        _ = try ServeTools.sqlite(
            f.db,
            """
            PRAGMA busy_timeout = 10000;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count - 1))
            INSERT INTO passes (serial, pass_type, template, record, auth_token, tag, modified_at, voided,
                web_service_url, compatible_pass)
            SELECT printf('BU%03d', i), pass_type, template, json_set(record, '$.milesToNextTier', CAST(i AS TEXT)),
                auth_token || i, tag + i, modified_at, voided, web_service_url, compatible_pass
            FROM passes, n WHERE serial = 'BU000';
            UPDATE passes SET record = json_set(record, '$.milesToNextTier', '0') WHERE serial = 'BU000';
            UPDATE meta SET value = (SELECT max(tag) FROM passes) WHERE key = 'tag';
            """)
        // serve holds the file open (its pusher writes): wait for its lock rather than fail.
        _ = try ServeTools.sqlite(
            f.db,
            """
            PRAGMA busy_timeout = 10000;
            BEGIN IMMEDIATE;
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < \(2 * count - 1))
            INSERT INTO devices (device_library_id, push_token, updated_at)
            SELECT 'bdev' || i, printf('b%063x', i), 0 FROM n;
            INSERT INTO registrations (device, pass_type, serial, created_at)
            SELECT device_library_id, '\(ServeTools.passType)', printf('BU%03d', CAST(substr(device_library_id, 5) AS INTEGER) / 2), 0
            FROM devices WHERE device_library_id LIKE 'bdev%';
            COMMIT;
            """)
    }

    /// Polls the job until it is done or failed; its last status.
    static func finished(_ f: ServeFixture, _ location: String) throws -> [String: Any] {
        var last: [String: Any] = [:]
        _ = try waitUntil(timeout: 60) {
            last = try f.http("GET", location, headers: ["Authorization": "Bearer \(admin)"]).json()
            return ["done", "failed"].contains(last["status"] as? String)
        }
        return last
    }

    @Test(
        "a CSV of 200 rows, a tenth changing tier: 202 with a Location, done with the counts, one push per device of each changed pass",
        .enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing))
    func csvJob() throws {
        let f = try ServeFixture(python: TestTools.pythonWithH2, environment: ["PASSMINT_ADMIN_TOKEN": Self.admin])
        defer { f.stop() }
        try Self.populate(f, count: 200)
        var csv = "serialNumber,tier,milesToNextTier\n"
        for i in 0..<200 { csv += String(format: "BU%03d", i) + ",\(i % 10 == 0 ? "Gold" : "Silver"),\(i)\n" }
        let bearer = ["Authorization": "Bearer \(Self.admin)"]

        #expect(try f.http("POST", "/admin/v1/updates", headers: ["Content-Type": "text/csv"], body: csv).status == 401)
        let wrongType = try f.http(
            "POST", "/admin/v1/updates", headers: bearer.merging(["Content-Type": "text/plain"]) { $1 }, body: csv)
        #expect(wrongType.status == 415)
        #expect(try f.count("update_jobs") == 0)

        let accepted = try f.http(
            "POST", "/admin/v1/updates", headers: bearer.merging(["Content-Type": "text/csv"]) { $1 }, body: csv)
        #expect(accepted.status == 202, "\(accepted.text)")
        let location = try #require(accepted.headers["location"])
        let id = try #require(try accepted.json()["id"] as? String)
        #expect(location == "/admin/v1/updates/\(id)")
        let status = try Self.finished(f, location)
        #expect(status["status"] as? String == "done", "\(status)")
        #expect(status["rows"] as? Int == 200)
        #expect(status["changed"] as? Int == 20)
        #expect(status["unchanged"] as? Int == 180)
        #expect(status["failed"] as? Int == 0)
        #expect(status["pushesQueued"] as? Int == 40)

        // Every device of a changed pass gets its push once; no other device gets one.
        let expected = Set((0..<400).filter { ($0 / 2) % 10 == 0 }.map { "/3/device/\(pushToken("b", $0))" })
        let delivered = try waitUntil(timeout: 30) {
            try f.apnsRequests().count >= 40 && f.count("push_outbox") == 0
        }
        try #require(delivered, "pushes at the stand-in: \((try? f.apnsRequests().count) ?? -1); \(f.serve.stderr)")
        let paths = try f.apnsRequests().compactMap { $0["path"] as? String }
        #expect(paths.count == 40)
        #expect(Set(paths) == expected)

        // Another instance on the same store answers the status.
        let other = try f.startInstance()
        let seen = try CLI.run(
            "curl", ["-s", "-H", "Authorization: Bearer \(Self.admin)", "http://127.0.0.1:\(other.port)\(location)"])
        let view = try #require(try JSONSerialization.jsonObject(with: Data(seen.stdout.utf8)) as? [String: Any])
        #expect(view["status"] as? String == "done" && view["changed"] as? Int == 20, "\(seen.stdout)")
        #expect(try f.http("GET", "/admin/v1/updates/0123456789abcdef0123456789abcdef", headers: bearer).status == 404)
    }

    @Test("JSON Lines: bad lines fail alone with their line; the job is done; the same rows again change nothing")
    func jsonLinesJob() throws {
        let f = try ServeFixture(python: nil, environment: ["PASSMINT_ADMIN_TOKEN": Self.admin])
        defer { f.stop() }
        try Self.populate(f, count: 5)
        let body = """
            {"serialNumber": "BU001", "tier": "Gold", "milesToNextTier": 5}
            {"serialNumber": "BU002", "tier": "Diamond"}

            not json
            {"serialNumber": "NOPE", "tier": "Gold"}
            {"serialNumber": "BU003", "milesToNextTier": 3}

            """
        let headers = ["Authorization": "Bearer \(Self.admin)", "Content-Type": "application/x-ndjson"]
        let accepted = try f.http("POST", "/admin/v1/updates", headers: headers, body: body)
        #expect(accepted.status == 202, "\(accepted.text)")
        let status = try Self.finished(f, try #require(accepted.headers["location"]))
        #expect(status["status"] as? String == "done", "\(status)")
        #expect(status["rows"] as? Int == 5)
        #expect(status["changed"] as? Int == 1)
        #expect(status["unchanged"] as? Int == 1)
        #expect(status["failed"] as? Int == 3)
        let failures = try #require(status["failures"] as? [[String: Any]])
        #expect(failures.compactMap { $0["line"] as? Int } == [2, 4, 5])
        #expect(failures.first?["column"] as? String == "tier")
        #expect(try f.count("push_outbox") == 2)
        #expect(
            try ServeTools.sqlite(f.db, "SELECT json_extract(record, '$.tier') FROM passes WHERE serial = 'BU001'")
                == "Gold")

        let again = try f.http("POST", "/admin/v1/updates", headers: headers, body: body)
        let second = try Self.finished(f, try #require(again.headers["location"]))
        #expect(second["changed"] as? Int == 0 && second["unchanged"] as? Int == 2, "\(second)")
        #expect(try f.count("push_outbox") == 2)
    }
}
