import Foundation
import PassMintTestSupport
import Testing

/// Debian's nginx, if installed.
private let nginxBinary = ["/usr/sbin/nginx", "/usr/bin/nginx"].first {
    FileManager.default.isExecutableFile(atPath: $0)
}

/// The README's "two instances behind nginx" deployment, run as written: its nginx block (only addresses, port
/// and certificate paths replaced) in front of two `serve` instances on one PostgreSQL, over TLS and HTTP/2.
@Suite(
    "README deployment: two instances behind nginx (end to end)", .serialized,
    .enabled(if: TestPostgres.url != nil, Comment(rawValue: TestPostgres.skipReason)),
    .enabled(if: nginxBinary != nil, "nginx is not installed: apt-get install nginx (scripts/install-deps)"))
struct DeploymentNginxTests {

    /// The first ```nginx block after `heading` in the README.
    static func readmeBlock(after heading: String) throws -> String {
        let readme = try String(contentsOf: CLI.root.appendingPathComponent("README.md"), encoding: .utf8)
        guard let section = readme.range(of: heading),
            let start = readme.range(of: "```nginx\n", range: section.upperBound..<readme.endIndex),
            let end = readme.range(of: "```", range: start.upperBound..<readme.endIndex)
        else { throw ServeFailure("README.md has no nginx block after '\(heading)'") }
        return String(readme[start.upperBound..<end.lowerBound])
    }

    /// `text` with each `(old, new)` replaced; each `old` must occur exactly once (a README that changed its
    /// example fails here instead of testing something else).
    static func replacing(_ text: String, _ pairs: [(String, String)]) throws -> String {
        var text = text
        for (old, new) in pairs {
            let count = text.components(separatedBy: old).count - 1
            guard count == 1 else {
                throw ServeFailure("the README's nginx block has '\(old)' \(count) times, not once")
            }
            text = text.replacingOccurrences(of: old, with: new)
        }
        return text
    }

    @Test(
        "through the README's nginx over TLS: registrations, downloads and lists reach both instances; one killed, every request still answered, none lost",
        .timeLimit(.minutes(5)))
    func twoInstancesBehindNginx() throws {
        let nginx = try #require(nginxBinary)
        let f = try ServeFixture(python: nil, postgres: try TestPostgres.freshSchema())
        defer { f.stop() }
        let second = try f.startInstance()
        let certificate = try TestServerCertificate(in: f.tmp)
        let port = try freeLoopbackPort()
        let block = try Self.replacing(
            try Self.readmeBlock(after: "#### Deploying two instances behind nginx"),
            [
                ("server 10.0.0.11:8080;", "server 127.0.0.1:\(f.port);"),
                ("server 10.0.0.12:8080;", "server 127.0.0.1:\(second.port);"),
                ("listen 443 ssl http2;", "listen 127.0.0.1:\(port) ssl http2;"),
                ("/etc/letsencrypt/live/passes.example.com/fullchain.pem", certificate.certificate),
                ("/etc/letsencrypt/live/passes.example.com/privkey.pem", certificate.key),
            ])
        // The rest of an nginx.conf, with every file nginx writes in the test's folder.
        let folder = f.tmp.path("nginx")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let configuration = """
            daemon off;
            master_process off;
            pid \(folder)/nginx.pid;
            error_log \(folder)/error.log warn;
            events { worker_connections 256; }
            http {
                access_log \(folder)/access.log;
                client_body_temp_path \(folder)/body;
                proxy_temp_path \(folder)/proxy;
                fastcgi_temp_path \(folder)/fastcgi;
                uwsgi_temp_path \(folder)/uwsgi;
                scgi_temp_path \(folder)/scgi;
            \(block)
            }
            """
        let configurationPath = f.tmp.path("nginx.conf")
        try Data(configuration.utf8).write(to: URL(fileURLWithPath: configurationPath))
        let proxy = try ManagedProcess(
            "nginx", nginx, ["-p", folder, "-c", configurationPath, "-e", "\(folder)/error.log"],
            stderrPath: f.tmp.path("nginx.err"))
        defer { proxy.stop(grace: 2) }
        let base = "https://127.0.0.1:\(port)"
        let tls = ["--cacert", certificate.ca, "--http2"]
        let up = try waitUntil(timeout: 20) {
            (try? f.http("GET", "/healthz", base: base, curlOptions: tls)) != nil
        }
        try #require(
            up,
            "nginx did not start: \(proxy.stderr) \((try? String(contentsOfFile: "\(folder)/error.log", encoding: .utf8)) ?? "")"
        )

        let (_, token) = try f.generate(serial: "NGINX-1")
        func register(_ i: Int) throws -> Int {
            try f.http(
                "POST", "/v1/devices/ngx\(i)/registrations/\(ServeTools.passType)/NGINX-1",
                headers: ["Authorization": "ApplePass \(token)"],
                body: #"{"pushToken":"\#(pushToken("ab", i))"}"#, base: base, curlOptions: tls
            ).status
        }
        func download() throws -> HTTPReply {
            try f.http(
                "GET", "/v1/passes/\(ServeTools.passType)/NGINX-1", headers: ["Authorization": "ApplePass \(token)"],
                base: base, curlOptions: tls)
        }

        // Both instances up: nginx spreads the requests over them.
        let before = try (0..<20).map(register)
        #expect(before == Array(repeating: 201, count: 20))
        let pass = try download()
        #expect(pass.status == 200)
        #expect(pass.headers["last-modified"] != nil)
        let pkpass = f.tmp.path("through-nginx.pkpass")
        try pass.body.write(to: URL(fileURLWithPath: pkpass))
        #expect(try ServeTools.opensslVerifies(pkpass, tmp: f.tmp))
        for instance in [f.serve, second.process] {
            #expect(instance.stderr.contains("/registrations/"), "an instance got no registration through nginx")
        }

        // One instance dies (SIGKILL, its connections to nginx with it): nginx sends everything to the other.
        second.process.stop(grace: 0)
        let after = try (20..<40).map(register)
        #expect(after == Array(repeating: 201, count: 20), "\(after)")
        #expect(try (0..<10).map { _ in try download().status } == Array(repeating: 200, count: 10))
        let list = try f.http(
            "GET", "/v1/devices/ngx39/registrations/\(ServeTools.passType)", base: base, curlOptions: tls)
        #expect(list.status == 200)
        #expect(try list.json()["serialNumbers"] as? [String] == ["NGINX-1"])
        #expect(try f.count("registrations") == 40)
        // nginx did try the dead instance and moved on (so the requests above proved the failover).
        let log = (try? String(contentsOfFile: "\(folder)/error.log", encoding: .utf8)) ?? ""
        #expect(log.contains("127.0.0.1:\(second.port)"), "nginx's error log: \(log)")
    }
}
