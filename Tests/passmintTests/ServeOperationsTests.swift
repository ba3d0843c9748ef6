import Foundation
import Testing

/// `passmint serve` run the way operations run it: HTTPS without a proxy, an access log, and what it refuses.
@Suite("serve: operations (end to end)", .serialized)
struct ServeOperationsTests {
    private func serve(_ tmp: TempDir, _ extra: [String], stdoutPath: String? = nil) throws -> ManagedProcess {
        try ManagedProcess(
            "passmint serve", CLI.binary,
            ["serve", "--db", tmp.path("store.db"), "--port", "0", "--threads", "2", "--apns", "https://127.0.0.1:9"]
                + extra + DevIdentity.signingArgs,
            stderrPath: tmp.path("serve-\(UUID().uuidString).err"), stdoutPath: stdoutPath)
    }

    private func listeningPort(in line: String, scheme: String) throws -> Int {
        guard let range = line.range(of: "\(scheme)://127.0.0.1:"),
            let port = Int(line[range.upperBound...].prefix { $0.isNumber })
        else { throw ServeFailure("no \(scheme) port in '\(line)'") }
        return port
    }

    @Test("--tls-cert/--tls-key: HTTPS answers with the test CA, plain HTTP does not; --access-log FILE gets the lines")
    func tlsAndAccessLog() throws {
        let tmp = try TempDir()
        let pki = try TestServerCertificate(in: tmp)
        let log = tmp.path("access.jsonl")
        let process = try serve(tmp, ["--tls-cert", pki.certificate, "--tls-key", pki.key, "--access-log", log])
        defer { process.stop() }
        let port = try listeningPort(in: try process.firstLine(), scheme: "https")
        let https = try CLI.run(
            "curl",
            ["-sS", "--cacert", pki.ca, "-o", "/dev/null", "-w", "%{http_code}", "https://127.0.0.1:\(port)/healthz"])
        #expect(https.stdout == "200", "\(https.stderr)")
        let plain = try CLI.run(
            "curl", ["-sS", "-m", "10", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/healthz"])
        #expect(plain.status != 0 && plain.stdout == "000", "plain HTTP was answered")
        #expect(process.stop() == 0, "\(process.stderr)")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1, "\(lines)")
        let object = try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any]
        #expect(object?["route"] as? String == "GET /healthz")
        #expect(object?["status"] as? Int == 200)
        #expect(try FileManager.default.attributesOfItem(atPath: log)[.posixPermissions] as? Int == 0o600)
        let key = try String(contentsOfFile: pki.key, encoding: .utf8).split(separator: "\n")[1]
        #expect(!process.stderr.contains(key))
    }

    @Test("over HTTPS a pass downloads whole (its body sent from the asset cache's buffers), unzips and verifies")
    func tlsPassDownload() throws {
        let tmp = try TempDir()
        let pki = try TestServerCertificate(in: tmp)
        let generated = tmp.path("generated.pkpass")
        let made = try CLI.passmint(
            [
                "generate", "--template", ServeTools.status, "--db", tmp.path("store.db"), "--web-service-url",
                "https://passes.example.com/", "--serial", "TLS1", "--out", generated,
            ] + DevIdentity.signingArgs)
        #expect(made.status == 0, "\(made.stderr)")
        let token = try #require(try ServeTools.passJSON(generated)["authenticationToken"] as? String)
        let process = try serve(tmp, ["--tls-cert", pki.certificate, "--tls-key", pki.key])
        defer { process.stop() }
        let port = try listeningPort(in: try process.firstLine(), scheme: "https")
        let downloaded = tmp.path("downloaded.pkpass")
        let curl = try CLI.run(
            "curl",
            [
                "-sS", "--cacert", pki.ca, "-H", "Authorization: ApplePass \(token)", "-o", downloaded, "-w",
                "%{http_code} %{size_download}", "https://127.0.0.1:\(port)/v1/passes/\(ServeTools.passType)/TLS1",
            ])
        let size = try FileManager.default.attributesOfItem(atPath: downloaded)[.size] as? Int ?? 0
        #expect(curl.stdout == "200 \(size)" && size > 10_000, "\(curl.stdout) \(curl.stderr)")
        #expect(try CLI.run("unzip", ["-tq", downloaded]).status == 0)
        #expect(try ServeTools.opensslVerifies(downloaded, tmp: tmp))
        // Every file but the signature is the same as the pipeline wrote (the signing time differs).
        for name in ["pass.json", "manifest.json", "icon.png"] {
            #expect(
                try ServeTools.entry(downloaded, name, tmp: tmp) == ServeTools.entry(generated, name, tmp: tmp),
                "\(name)")
        }
    }

    @Test("--access-log - writes the lines to stdout after the listening line; --log-requests to stderr")
    func standardStreams() throws {
        let tmp = try TempDir()
        let out = tmp.path("serve.out")
        let process = try serve(tmp, ["--access-log", "-"], stdoutPath: out)
        defer { process.stop() }
        var listening = ""
        #expect(
            waitUntil(timeout: 60) {
                listening = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
                return listening.contains("\n")
            })
        let port = try listeningPort(in: listening, scheme: "http")
        #expect(try CLI.run("curl", ["-sS", "-o", "/dev/null", "http://127.0.0.1:\(port)/metrics"]).status == 0)
        #expect(process.stop() == 0)
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        #expect(
            lines.count == 2 && lines[0].contains("listening on") && lines[1].contains(#""route":"GET /metrics""#),
            "\(lines)")

        let stderrProcess = try serve(tmp, ["--log-requests"])
        defer { stderrProcess.stop() }
        let stderrPort = try listeningPort(in: try stderrProcess.firstLine(), scheme: "http")
        #expect(try CLI.run("curl", ["-sS", "-o", "/dev/null", "http://127.0.0.1:\(stderrPort)/nope"]).status == 0)
        #expect(stderrProcess.stop() == 0)
        #expect(
            stderrProcess.stderr.contains(#""method":"GET","route":"unmatched","status":404"#),
            "\(stderrProcess.stderr)")
    }

    @Test("TLS files and access logs that cannot be used exit 3 naming the option; half a TLS pair exits 2")
    func refusals() throws {
        let tmp = try TempDir()
        let pki = try TestServerCertificate(in: tmp)
        let otherDirectory = try TempDir()
        let other = try TestServerCertificate(in: otherDirectory)
        let key = try String(contentsOfFile: pki.key, encoding: .utf8).split(separator: "\n")[1]
        let cases: [([String], Int32, [String])] = [
            (
                ["--tls-cert", tmp.path("missing.pem"), "--tls-key", pki.key], 3,
                ["--tls-cert", "missing.pem", "cannot be read"]
            ),
            (["--tls-cert", pki.certificate, "--tls-key", pki.ca], 3, ["--tls-key", "ca.pem"]),
            (["--tls-cert", pki.certificate, "--tls-key", other.key], 3, ["--tls-cert", "does not belong"]),
            (["--tls-cert", pki.certificate], 2, ["--tls-key"]),
            (["--tls-key", pki.key], 2, ["--tls-cert"]),
            (["--access-log", tmp.path("no/such/dir.jsonl")], 3, ["--access-log", "dir.jsonl"]),
            (["--access-log", "-", "--log-requests"], 2, ["--log-requests"]),
        ]
        for (arguments, status, words) in cases {
            let result = try CLI.passmint(
                ["serve", "--db", tmp.path("refused.db"), "--port", "0"] + arguments + DevIdentity.signingArgs)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            for word in words { #expect(result.stderr.contains(word), "\(arguments): \(result.stderr)") }
            #expect(!result.stderr.contains(key))
        }
        #expect(!FileManager.default.fileExists(atPath: tmp.path("refused.db")))
        withExtendedLifetime(otherDirectory) {}
    }
}
