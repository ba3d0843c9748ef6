import Foundation
import PassMintTestSupport
import Testing

/// `serve` on PostgreSQL, end to end: several instances on one database, a database restart under a running
/// instance, and a SQLite store migrated into PostgreSQL.
@Suite(
    "serve on PostgreSQL (end to end)", .serialized,
    .enabled(if: TestPostgres.url != nil, Comment(rawValue: TestPostgres.skipReason)))
struct ServePostgresTests {
    static let devices = 2000

    @Test(
        "two instances on one database: 2,000 devices through both, one change, SIGKILL of one while pushing; every device pushed, no registration lost",
        .enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing),
        .timeLimit(.minutes(4)))
    func twoInstancesSurviveKill() async throws {
        let python = try #require(TestTools.pythonWithH2)
        let f = try ServeFixture(python: python, postgres: try TestPostgres.freshSchema())
        defer { f.stop() }
        let second = try f.startInstance()
        let (_, token) = try f.generate(serial: "PG-1")
        let registrarArguments = [
            "-c", ServeTools.registrar, "\(f.port),\(second.port)", ServeTools.passType, "PG-1", token,
            String(Self.devices), "pg", "bd",
        ]
        let registered = try await offPool { try CLI.run(python, registrarArguments) }
        #expect(
            registered.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == #"{"201": \#(Self.devices)}"#,
            "\(registered.stdout) \(registered.stderr)")
        #expect(try f.count("registrations") == Self.devices)

        let updated = try f.update("PG-1", ["tier=Gold"])
        try #require(updated.status == 0, "\(updated.stderr)")
        let started = try waitUntilBlocking(timeout: 60) { !(try f.pushedTokens()).isEmpty }
        try #require(started, "no push reached the stand-in: \(f.serve.stderr)")
        f.serve.stop(grace: 0)  // SIGKILL the first instance mid fan-out; the second carries on alone
        let beforeKill = try f.pushedTokens().count
        #expect(beforeKill < Self.devices, "the fan-out ended before the kill; the test proved nothing")

        // Rows the killed instance had claimed come back to the survivor when their lease ends (30 s).
        let expected = Set((0..<Self.devices).map { pushToken("bd", $0) })
        // The async wait: the cooperative threads (two here) stay free for the tests that run meanwhile.
        var pushed: Set<String> = []
        let reached = try await waitUntil(timeout: 120) {
            pushed = try f.pushedTokens()
            return expected.isSubset(of: pushed)
        }
        #expect(
            reached, "\(expected.subtracting(pushed).count) devices never got a push (\(beforeKill) before the kill)")
        #expect(try f.count("registrations") == Self.devices)
        let drained = try waitUntilBlocking(timeout: 30) { try f.count("push_outbox") == 0 }
        #expect(drained, "outbox rows left: \((try? f.count("push_outbox")) ?? -1)")
        // Sent by one instance in the normal case: duplicates only for rows the killed instance held.
        let requests = try f.apnsRequests().count
        #expect(requests - Self.devices <= Self.devices - beforeKill, "\(requests) pushes for \(Self.devices) devices")
        print(
            "two instances: \(beforeKill) of \(Self.devices) devices pushed before the SIGKILL, \(requests) pushes in all"
        )
    }

    @Test(
        "PostgreSQL restarted under a running serve: 503 with Retry-After while it is down, 200 after, same process",
        .timeLimit(.minutes(2)))
    func databaseRestart() throws {
        // A private server: stopping the shared one would fail the other PostgreSQL tests running meanwhile.
        let state = try TempDir()
        let script = PackagePaths.root.appendingPathComponent("scripts/test-postgres").path
        // A port the kernel just found free (a fixed one inside the ephemeral range can be taken by any client
        // socket of the tests running meanwhile); tried again with a new port if it is taken before the server binds.
        var environment: [String: String] = [:]
        var attempt: CLI.Result?
        for _ in 0..<3 where attempt?.status != 0 {
            environment = [
                "PASSMINT_TEST_POSTGRES_PORT": String(try freeLoopbackPort()),
                "PASSMINT_TEST_POSTGRES_STATE": state.path("state"),
            ]
            attempt = try CLI.run(script, ["start", state.path("env")], environment: environment)
            if attempt?.status != 0 { _ = try? CLI.run(script, ["stop"], environment: environment) }
        }
        let started = try #require(attempt)
        try #require(started.status == 0, "\(started.stderr)")
        defer { _ = try? CLI.run(script, ["stop"], environment: environment) }
        let url = started.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "PASSMINT_TEST_POSTGRES_URL=", with: "")

        let f = try ServeFixture(python: nil, postgres: url + "?connect_timeout=2")
        defer { f.stop() }
        let (_, token) = try f.generate(serial: "RESTART-1")
        #expect(try f.download(serial: "RESTART-1", token: token).status == 200)

        try #require(try CLI.run(script, ["pause"], environment: environment).status == 0)
        var down = try f.download(serial: "RESTART-1", token: token)
        // The first request after the restart may find a pooled connection that only then reports the loss.
        _ = try waitUntil(timeout: 20) {
            down = try f.download(serial: "RESTART-1", token: token)
            return down.status == 503
        }
        #expect(down.status == 503, "\(down.status) \(down.text)")
        #expect(down.headers["retry-after"] == "5")
        #expect(
            try f.register(device: "restart1", serial: "RESTART-1", token: token, pushToken: pushToken("ae", 1))
                .status == 503)

        try #require(try CLI.run(script, ["resume"], environment: environment).status == 0)
        var up = down
        let recovered = try waitUntil(timeout: 30) {
            up = try f.download(serial: "RESTART-1", token: token)
            return up.status == 200
        }
        #expect(recovered, "\(up.status) \(up.text): \(f.serve.stderr)")
        #expect(
            try f.register(device: "restart1", serial: "RESTART-1", token: token, pushToken: pushToken("ae", 1))
                .status == 201)
        #expect(f.serve.isRunning)
        #expect(!f.serve.stderr.contains("s3cret"))
    }

    @Test(
        "serve exits 3 with a clear message when the database cannot be reached at start; the password is never shown")
    func unreachableAtStart() throws {
        let result = try CLI.passmint(
            ["serve", "--port", "0"] + DevIdentity.signingArgs,
            environment: [
                "PASSMINT_DATABASE_URL": "postgresql://passmint:s3cret@127.0.0.1:1/passmint?connect_timeout=2"
            ])
        #expect(result.status == 3)
        #expect(result.stderr.contains("cannot be reached"), "\(result.stderr)")
        #expect(result.stderr.contains("postgresql://passmint:***@127.0.0.1:1/passmint"))
        #expect(!result.stderr.contains("s3cret"))
        let onCommandLine = try CLI.passmint(
            ["serve", "--postgres", "postgresql://passmint:s3cret@127.0.0.1:1/passmint"] + DevIdentity.signingArgs)
        #expect(onCommandLine.status == 2)
        #expect(!onCommandLine.stderr.contains("s3cret"))
    }

    /// Downloads every pass of `tokens.txt` (serial, token) and lists every device of `expected.txt` (device, serials
    /// comma-separated) against one port, 8 keep-alive connections; prints the counts as JSON.
    static let verifier = """
        import http.client, json, sys, threading
        port, pass_type, tokens_file, expected_file = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
        passes = [line.split() for line in open(tokens_file) if line.strip()]
        devices = [line.split() for line in open(expected_file) if line.strip()]
        counts, lock, threads = {"downloaded": 0, "listed": 0, "other": 0}, threading.Lock(), 8
        def work(k):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            for serial, token in passes[k::threads]:
                connection.request("GET", f"/v1/passes/{pass_type}/{serial}", headers={"Authorization": "ApplePass " + token})
                response = connection.getresponse()
                body = response.read()
                ok = response.status == 200 and body[:2] == b"PK"
                with lock: counts["downloaded" if ok else "other"] += 1
            for device, serials in devices[k::threads]:
                connection.request("GET", f"/v1/devices/{device}/registrations/{pass_type}")
                response = connection.getresponse()
                body = response.read()
                ok = response.status == 200 and sorted(json.loads(body)["serialNumbers"]) == sorted(serials.split(","))
                with lock: counts["listed" if ok else "other"] += 1
        workers = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
        for w in workers: w.start()
        for w in workers: w.join()
        print(json.dumps(counts, sort_keys=True))
        """

    @Test(
        "migrate --from-sqlite on 10,000 passes with registrations: every pass downloads with its old token from PostgreSQL, every device lists the same serials",
        .timeLimit(.minutes(10)))
    func migrateFromSQLite() async throws {
        let passes = 10_000
        let tmp = try TempDir()
        let db = tmp.path("old.db")
        let csv =
            (["serialNumber,memberName,tier"]
            + (0..<passes).map { "MIG-\(String(format: "%05d", $0)),Member \($0),Silver" })
            .joined(separator: "\n") + "\n"
        try csv.write(toFile: tmp.path("members.csv"), atomically: true, encoding: .utf8)
        let batchArguments =
            [
                "batch", "--template", ServeTools.status, "--csv", tmp.path("members.csv"), "--out", tmp.path("passes"),
                "--db", db, "--web-service-url", "https://passes.example.com/",
            ] + DevIdentity.signingArgs
        let batch = try await offPool { try CLI.passmint(batchArguments) }
        try #require(batch.status == 0, "\(batch.stderr)")
        try? FileManager.default.removeItem(atPath: tmp.path("passes"))
        // Device i holds passes i and i+1: 10,000 devices, 20,000 registrations, as the register endpoint writes them.
        _ = try ServeTools.sqlite(
            db,
            """
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < \(passes - 1))
            INSERT INTO devices (device_library_id, push_token, updated_at)
                SELECT printf('mig%05d', i), printf('ce%062x', i), 1800000000 FROM n;
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < \(passes - 1))
            INSERT INTO registrations (device, pass_type, serial, created_at)
                SELECT printf('mig%05d', i), '\(ServeTools.passType)', printf('MIG-%05d', i), 1800000000 FROM n
                UNION ALL SELECT printf('mig%05d', i), '\(ServeTools.passType)', printf('MIG-%05d', (i + 1) % \(passes)),
                    1800000000 FROM n;
            """)
        try ServeTools.sqlite(db, "SELECT serial || ' ' || auth_token FROM passes ORDER BY serial")
            .write(toFile: tmp.path("tokens.txt"), atomically: true, encoding: .utf8)
        try ServeTools.sqlite(
            db,
            """
            SELECT device || ' ' || group_concat(serial, ',') FROM registrations GROUP BY device ORDER BY device
            """
        ).write(toFile: tmp.path("expected.txt"), atomically: true, encoding: .utf8)

        let url = try TestPostgres.freshSchema()
        let migrated = try CLI.passmint(["migrate", "--from-sqlite", db, "--postgres", url])
        try #require(migrated.status == 0, "\(migrated.stderr)")
        #expect(migrated.stdout.contains("\(passes) passes"), "\(migrated.stdout)")
        #expect(migrated.stdout.contains("\(2 * passes) registrations"), "\(migrated.stdout)")

        let python = "python3"
        let f = try ServeFixture(python: nil, postgres: url)
        defer { f.stop() }
        let verifierArguments = [
            "-c", Self.verifier, String(f.port), ServeTools.passType, tmp.path("tokens.txt"), tmp.path("expected.txt"),
        ]
        let verified = try await offPool { try CLI.run(python, verifierArguments) }
        #expect(
            verified.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == #"{"downloaded": \#(passes), "listed": \#(passes), "other": 0}"#,
            "\(verified.stdout) \(verified.stderr)")
        // Moved, not duplicated: a second migrate into the same database is refused.
        let again = try CLI.passmint(["migrate", "--from-sqlite", db, "--postgres", url])
        #expect(again.status == 3)
        #expect(again.stderr.contains("already holds \(passes) passes"), "\(again.stderr)")
    }

    @Test("batch --postgres --shard i/N: two machines issue disjoint halves of one CSV into one database at once")
    func shardedBatch() throws {
        let tmp = try TempDir()
        let rows = 200
        let csv =
            (["serialNumber,memberName,tier"]
            + (0..<rows).map { "SHARD-\(String(format: "%04d", $0)),Member \($0),Gold" })
            .joined(separator: "\n") + "\n"
        try csv.write(toFile: tmp.path("members.csv"), atomically: true, encoding: .utf8)
        let url = try TestPostgres.freshSchema()
        let runs = (1...2).map { shard in
            try? CLI.launch(
                [
                    "batch", "--template", ServeTools.status, "--csv", tmp.path("members.csv"), "--out",
                    tmp.path("out\(shard)"), "--web-service-url", "https://passes.example.com/", "--shard",
                    "\(shard)/2",
                    "--jobs", "1",
                ] + DevIdentity.signingArgs,
                environment: ["PASSMINT_DATABASE_URL": url], stderrPath: tmp.path("shard\(shard).err"))
        }
        for (index, run) in runs.enumerated() {
            run?.waitUntilExit()
            let stderr = (try? String(contentsOfFile: tmp.path("shard\(index + 1).err"), encoding: .utf8)) ?? ""
            #expect(run?.terminationStatus == 0, "shard \(index + 1): \(stderr)")
        }
        #expect(try TestPostgres.psql(url, "SELECT count(*), count(DISTINCT serial) FROM passes") == "\(rows)|\(rows)")
        let files = try (1...2).map { try FileManager.default.contentsOfDirectory(atPath: tmp.path("out\($0)")) }
        #expect(Set(files[0]).isDisjoint(with: files[1]))
        #expect(files[0].count + files[1].count == rows)
    }
}

/// Runs blocking work (a child process the test waits for) on a thread of its own, so a long wait does not hold
/// one of the few cooperative threads that every other test running meanwhile needs. `body` records no issues:
/// expectations stay in the test, on what it returns.
private func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
