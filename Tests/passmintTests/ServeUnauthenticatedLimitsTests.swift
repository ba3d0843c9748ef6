import Foundation
import Testing

/// `POST /v1/log` without credentials against the real binary: a cap on the bytes stored, a budget per client
/// address, retention; checked with sqlite3 on the store and on /metrics.
@Suite("serve: unauthenticated writes are bounded (end to end)", .serialized)
struct ServeUnauthenticatedLimitsTests {
    /// Posts COUNT log bodies of one line of LENGTH bytes to PORT from SOURCE (a loopback address), 8 keep-alive
    /// connections, and prints {"200": n, "429": m, "retry_after_missing": k}. Python's standard library only.
    static let poster = """
        import http.client, json, sys, threading
        port, source, count, length = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        threads, counts, lock = 8, {"retry_after_missing": 0}, threading.Lock()
        body = json.dumps({"logs": ["x" * length]})
        def work(k):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
            for i in range(k, count, threads):
                connection.request("POST", "/v1/log", body=body, headers={"Content-Type": "application/json"})
                response = connection.getresponse()
                response.read()
                with lock:
                    counts[str(response.status)] = counts.get(str(response.status), 0) + 1
                    if response.status == 429 and not (response.getheader("Retry-After") or "").isdigit():
                        counts["retry_after_missing"] += 1
        workers = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
        for w in workers: w.start()
        for w in workers: w.join()
        print(json.dumps(counts))
        """

    func post(_ f: ServeFixture, count: Int, length: Int, from source: String = "127.0.0.1") throws -> [String: Int] {
        let result = try CLI.run(
            "/usr/bin/python3", ["-c", Self.poster, String(f.port), source, String(count), String(length)])
        guard result.status == 0,
            let counts = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Int]
        else { throw ServeFailure("poster: \(result.stderr)") }
        return counts
    }

    /// The bytes the stored lines count (text bytes plus 64 a row), and the rows, read with sqlite3.
    func storedLogs(_ f: ServeFixture) throws -> (bytes: Int, rows: Int) {
        let text = try ServeTools.sqlite(
            f.db, "select coalesce(sum(length(cast(message as blob)) + 64), 0) || ' ' || count(*) from logs")
        let parts = text.split(separator: " ").compactMap { Int($0) }
        guard parts.count == 2 else { throw ServeFailure("sqlite3 said '\(text)'") }
        return (parts[0], parts[1])
    }

    func metric(_ f: ServeFixture, _ series: String) throws -> Int? {
        let text = try f.http("GET", "/metrics").text
        return text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap {
            Int($0.split(separator: " ").last ?? "")
        }
    }

    @Test("10,000 log posts: the store stays within its cap in bytes, the rest get 429 with Retry-After")
    func tenThousandPosts() throws {
        let cap = 262_144
        let f = try ServeFixture(
            python: nil, serveOptions: ["--max-log-bytes", String(cap), "--log-bytes-per-address", "0"])
        defer { f.stop() }
        let counts = try post(f, count: 10_000, length: 200)
        let accepted = counts["200"] ?? 0, refused = counts["429"] ?? 0
        #expect(accepted + refused == 10_000, "\(counts)")
        #expect(counts["retry_after_missing"] == 0, "\(counts)")
        let stored = try storedLogs(f)
        #expect(stored.bytes <= cap && stored.bytes > cap - 264, "\(stored)")
        #expect(stored.rows == accepted && accepted == cap / 264, "\(stored) \(counts)")
        #expect(
            try ServeTools.sqlite(f.db, "select bytes || ' ' || rows from unauthenticated_usage where kind = 'log'")
                == "\(stored.bytes) \(stored.rows)")
        #expect(try metric(f, #"passmint_unauthenticated_writes_total{kind="log",result="stored"}"#) == accepted)
        #expect(try metric(f, #"passmint_unauthenticated_writes_total{kind="log",result="store_cap"}"#) == refused)
        #expect(try metric(f, #"passmint_unauthenticated_stored_bytes{kind="log"}"#) == stored.bytes)
        #expect(try metric(f, #"passmint_unauthenticated_cap_bytes{kind="log"}"#) == cap)
    }

    @Test("one client address past its hourly log bytes gets 429; another address goes on")
    func perAddress() throws {
        let f = try ServeFixture(python: nil, serveOptions: ["--log-bytes-per-address", "8192"])
        defer { f.stop() }
        let first = try post(f, count: 100, length: 200, from: "127.0.0.2")
        #expect(first["200"] == 8192 / 264 && first["429"] == 100 - 8192 / 264, "\(first)")
        #expect(first["retry_after_missing"] == 0)
        let second = try post(f, count: 5, length: 200, from: "127.0.0.3")
        #expect(second["200"] == 5, "\(second)")
        #expect(try storedLogs(f).rows == 8192 / 264 + 5)
        #expect(
            try metric(f, #"passmint_unauthenticated_writes_total{kind="log",result="address_limit"}"#)
                == 100 - 8192 / 264)
    }

    @Test("retention: lines and sign-ups older than --retention-days are deleted by the running service")
    func retention() throws {
        let tmp = try TempDir()
        let db = tmp.path("store.db")
        let generated = try CLI.passmint(
            [
                "generate", "--template", ServeTools.status, "--db", db, "--serial", "OLD-1", "--out",
                tmp.path("o.pkpass"),
            ]
                + DevIdentity.signingArgs)
        try #require(generated.status == 0, "\(generated.stderr)")
        let day = 86_400
        _ = try ServeTools.sqlite(
            db,
            """
            insert into logs (at, message) values (strftime('%s','now') - \(40 * day), 'forty days old'),
                (strftime('%s','now') - \(31 * day), 'thirty-one days old'), (strftime('%s','now') - \(day), 'yesterday');
            insert into personalizations (serial, pass_type, token, info, at)
                values ('OLD-1', 'pass.dev.passmint', 'tok', '{}', strftime('%s','now') - \(45 * day));
            """)
        let process = try ManagedProcess(
            "passmint serve", CLI.binary,
            [
                "serve", "--db", db, "--port", "0", "--threads", "2", "--apns", "https://127.0.0.1:9",
                "--retention-days", "30",
            ]
                + DevIdentity.signingArgs,
            stderrPath: tmp.path("serve.err"))
        defer { process.stop() }
        let line = try process.firstLine()
        let port = try #require(
            line.range(of: "127.0.0.1:").map { Int(line[$0.upperBound...].prefix { $0.isNumber }) } ?? nil)
        let swept = try waitUntil(timeout: 30) {
            try ServeTools.sqlite(db, "select count(*) from logs") == "1"
        }
        #expect(swept, "the old lines are still stored: \(process.stderr)")
        #expect(try ServeTools.sqlite(db, "select message from logs") == "yesterday")
        #expect(try ServeTools.sqlite(db, "select count(*) from personalizations") == "0")
        #expect(
            try ServeTools.sqlite(db, "select bytes || ' ' || rows from unauthenticated_usage order by kind")
                == "\("yesterday".utf8.count + 64) 1\n0 0")
        let metrics = try CLI.run("curl", ["-s", "http://127.0.0.1:\(port)/metrics"]).stdout
        #expect(metrics.contains(#"passmint_unauthenticated_expired_rows_total{kind="log"} 2"#), "\(metrics)")
        #expect(metrics.contains(#"passmint_unauthenticated_expired_rows_total{kind="personalization"} 1"#))
    }
}
