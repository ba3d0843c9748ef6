import Foundation
import Testing

/// `passmint serve` against clients that try to exhaust it without credentials: big unauthenticated uploads,
/// thousands of slow connections from one address, heads and bodies that trickle in (issue 20, items 2 and 3).
@Suite("serve: exhaustion without credentials (end to end)", .serialized)
struct ServeExhaustionTests {
    private static let python = "/usr/bin/python3"
    private static let slowClients = ServeTools.testsFolder.appendingPathComponent("SlowClients.py").path
    private static let bigUploads = ServeTools.testsFolder.appendingPathComponent("BigUploads.py").path
    private static let admin = "exhaustion-admin-token-0123456789abcdef"

    /// VmRSS of a process in kB, from /proc.
    private func residentKilobytes(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let value = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
        else { throw ServeFailure("no VmRSS in /proc/\(pid)/status") }
        return value
    }

    private func json(_ result: CLI.Result) throws -> Any {
        guard result.status == 0 else { throw ServeFailure("python: \(result.stderr)") }
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    @Test(
        "20 unauthenticated 50 MB uploads to /admin/v1/updates get 401 on their head, no 100 Continue, and serve's RSS grows by at most 5 MB",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
    func unauthenticatedUploads() throws {
        let f = try ServeFixture(python: nil, environment: ["PASSMINT_ADMIN_TOKEN": Self.admin])
        defer { f.stop() }
        let pid = f.serve.process.processIdentifier
        // One of each kind first, so that what the first requests allocate for good is not counted.
        _ = try json(try CLI.run(Self.python, [Self.bigUploads, String(f.port), "2", "1048576", "/admin/v1/updates"]))
        #expect(try f.http("GET", "/healthz").status == 200)
        let before = try residentKilobytes(pid)
        let uploads = try #require(
            try json(
                try CLI.run(Self.python, [Self.bigUploads, String(f.port), "20", "52428800", "/admin/v1/updates"]))
                as? [[String: Any]])
        let after = try residentKilobytes(pid)
        #expect(uploads.count == 20)
        for upload in uploads {
            #expect(upload["status"] as? Int == 401, "\(upload)")
            #expect(upload["continue"] as? Bool == false, "100 Continue was sent: \(upload)")
            // The answer came while the client was still sending: far less than the 50 MB went out.
            #expect((upload["sent"] as? Int ?? 0) < 16 * 1024 * 1024, "\(upload)")
        }
        #expect(after - before <= 5 * 1024, "VmRSS \(before) kB before, \(after) kB after 20 uploads")
        let metrics = try f.http("GET", "/metrics").text
        #expect(metrics.contains(#"route="unmatched",status="401"} 22"# + "\n"), "\(metrics.prefix(2000))")
    }

    @Test(
        "under 4,100 held slow connections from 127.0.0.1, /healthz from 127.0.0.2 answers within 1 s; refusals counted",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
    func slowConnectionsFromOneAddress() throws {
        let tmp = try TempDir()
        // A soft descriptor limit far below what 4,096 connections need: serve raises it to the hard limit.
        let serve = try ManagedProcess(
            "passmint serve", "/bin/sh",
            [
                "-c", #"ulimit -Sn 1024 && exec "$0" "$@""#, CLI.binary, "serve", "--db", tmp.path("store.db"),
                "--port", "0", "--threads", "2", "--apns", "https://127.0.0.1:9",
            ] + DevIdentity.signingArgs, stderrPath: tmp.path("serve.err"))
        defer { serve.stop() }
        let line = try serve.firstLine()
        let port = try #require(
            line.range(of: "127.0.0.1:").flatMap { Int(line[$0.upperBound...].prefix { $0.isNumber }) })
        let limits = try String(contentsOfFile: "/proc/\(serve.process.processIdentifier)/limits", encoding: .utf8)
        let files = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        let numbers = files.split(separator: " ").compactMap { Int($0) }
        #expect(numbers.count == 2 && numbers[0] == numbers[1] && numbers[0] > 4096 + 64, "\(files)")

        let started = Date()
        let result = try #require(
            try json(
                try CLI.run(Self.python, [Self.slowClients, String(port), "4100", "127.0.0.1", "127.0.0.2", "12", "8"]))
                as? [String: Any])
        #expect(Date().timeIntervalSince(started) < 50)
        let probes = try #require(result["probes"] as? [Any])
        #expect(probes.count >= 3, "\(result)")
        for probe in probes {
            let seconds = probe as? Double
            #expect(seconds != nil && seconds! < 1, "a /healthz from 127.0.0.2 took \(probe) s: \(result)")
        }
        // The per-address cap (default 256) held the rest out at once.
        let closed = try #require(result["closed_by_server"] as? Int)
        #expect(closed >= 4100 - 256, "\(result)")
        let metrics = try CLI.run("curl", ["-s", "http://127.0.0.1:\(port)/metrics"]).stdout
        let refused = metrics.split(separator: "\n").first {
            $0.hasPrefix(#"passmint_http_refused_total{reason="per_address_limit"}"#)
        }
        let count = refused.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
        #expect(count >= 4100 - 256, "\(refused ?? "no per_address_limit line in /metrics")")
    }

    @Test(
        "a head or a body that trickles in is cut at the request deadline (--request-timeout), and counted",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
    func trickleDeadlines() throws {
        let tmp = try TempDir()
        let serve = try ManagedProcess(
            "passmint serve", CLI.binary,
            [
                "serve", "--db", tmp.path("store.db"), "--port", "0", "--threads", "2", "--apns",
                "https://127.0.0.1:9", "--request-timeout", "2",
            ] + DevIdentity.signingArgs, stderrPath: tmp.path("serve.err"))
        defer { serve.stop() }
        let line = try serve.firstLine()
        let port = try #require(
            line.range(of: "127.0.0.1:").flatMap { Int(line[$0.upperBound...].prefix { $0.isNumber }) })
        // One client sends its head a byte every 0.5 s, another a complete head and then a body byte every 0.5 s;
        // each reports after how many seconds the server closed the connection (null: still open after 15 s).
        let script = #"""
            import json, socket, sys, threading, time
            port, results = int(sys.argv[1]), {}
            def trickle(name, prefix, payload):
                s = socket.create_connection(("127.0.0.1", port))
                s.sendall(prefix)
                started = time.monotonic()
                for byte in payload:
                    try:
                        s.sendall(bytes([byte]))
                    except OSError:
                        break
                    s.settimeout(0.5)
                    try:
                        if s.recv(1024) == b"":
                            break
                    except socket.timeout:
                        continue
                    except OSError:
                        break
                    break
                closed = time.monotonic() - started
                results[name] = round(closed, 2) if closed < 15 else None
                s.close()
            head = b"POST /v1/log HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n"
            threads = [threading.Thread(target=trickle, args=("head", b"", head * 2)),
                       threading.Thread(target=trickle, args=("body", head, b"{" * 40))]
            for t in threads: t.start()
            for t in threads: t.join()
            print(json.dumps(results))
            """#
        let result = try #require(try json(try CLI.run(Self.python, ["-c", script, String(port)])) as? [String: Any])
        for phase in ["head", "body"] {
            let seconds = result[phase] as? Double
            #expect(seconds != nil && seconds! >= 1.5 && seconds! < 8, "\(phase): \(result)")
        }
        let metrics = try CLI.run("curl", ["-s", "http://127.0.0.1:\(port)/metrics"]).stdout
        #expect(metrics.contains(#"passmint_http_refused_total{reason="head_timeout"} 1"#), "\(metrics.prefix(3000))")
        #expect(metrics.contains(#"passmint_http_refused_total{reason="body_timeout"} 1"#), "\(metrics.prefix(3000))")
        // A normal request is untouched by the deadline.
        #expect(
            try CLI.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/healthz"])
                .stdout == "200")
    }
}
