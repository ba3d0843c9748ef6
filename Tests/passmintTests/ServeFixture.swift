import Foundation
import Testing
import PassMintTestSupport

/// One HTTP answer as curl saw it.
struct HTTPReply {
    let status: Int
    /// Header names lowercased; the last response block only (after any 100 Continue).
    let headers: [String: String]
    let body: Data
    var text: String { String(decoding: body, as: UTF8.self) }
    func json() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw ServeFailure("not a JSON object: \(text)")
        }
        return object
    }
}

/// What one `serve` end-to-end test runs: the APNs stand-in (optional), `passmint serve --port 0` on a fresh
/// store, and helpers to issue, update and call it with the real tools. Every process is stopped on `stop()` and
/// on deinit, so a failing test leaves nothing running.
final class ServeFixture {
    let tmp: TempDir
    let db: String
    /// The PostgreSQL store instead of `db`, when given.
    let postgres: String?
    /// `--db FILE` or `--postgres URL`, for serve, generate and update.
    var storeArguments: [String] { postgres.map { ["--postgres", $0] } ?? ["--db", db] }
    /// More `serve` instances on the same store (`startInstance()`), stopped with the fixture.
    private(set) var instances: [(process: ManagedProcess, port: Int)] = []
    let apns: APNsStandIn?
    let apnsLog: String
    private(set) var serve: ManagedProcess
    private(set) var port: Int
    /// `serve`'s arguments, kept for `killAndRestart()`.
    private var serveArguments: [String]
    private let serveEnvironment: [String: String]
    var base: String { "http://127.0.0.1:\(port)" }

    /// - Parameters:
    ///   - python: a python3 with h2 to run the APNs stand-in, or nil for a service whose pushes go nowhere.
    ///   - environment: extra environment for `serve` (e.g. PASSMINT_ADMIN_TOKEN).
    ///   - postgres: a PostgreSQL URL to serve from instead of a fresh SQLite file.
    ///   - signingArguments: `serve`'s identity options (default: the shared development identity).
    ///   - clientCAs: the CA files the APNs stand-in trusts for client certificates (default: the shared
    ///     development identity's chain).
    ///   - serveOptions: more options for `serve` (limits, `--trust-root`), placed before the identity's.
    ///   - apnsArguments: more options for the APNs stand-in (its token authentication).
    ///   - port: the port to listen on (0: a free one, new at each restart).
    init(
        python: String?, environment: [String: String] = [:], postgres: String? = nil,
        signingArguments: [String] = DevIdentity.signingArgs, clientCAs: [String]? = nil, serveOptions: [String] = [],
        apnsArguments: [String] = [], port: Int = 0
    ) throws {
        tmp = try TempDir()
        db = tmp.path("store.db")
        self.postgres = postgres
        apnsLog = tmp.path("apns.jsonl")
        _ = FileManager.default.createFile(atPath: apnsLog, contents: nil)  // before the stand-in opens it
        var apnsURL = "https://127.0.0.1:9"  // discard port: nothing is pushed in tests without a stand-in
        var apnsCA: [String] = []
        if let python {
            let pki = try APNsTestPKI(in: tmp, clientCAs: clientCAs)
            let server = try APNsStandIn(
                python: python, certificate: pki.serverCert, key: pki.serverKey, clientCA: pki.clientCA, log: apnsLog,
                stderrPath: tmp.path("apns.err"), arguments: apnsArguments)
            apns = server
            apnsURL = server.url
            apnsCA = ["--apns-ca", pki.ca]
        } else {
            apns = nil
        }
        serveArguments =
            ["serve"] + (postgres.map { ["--postgres", $0] } ?? ["--db", db])
            + ["--port", String(port), "--threads", "2", "--apns", apnsURL, "--log-requests"] + apnsCA + serveOptions
            + signingArguments
        serveEnvironment = environment
        (serve, self.port) = try Self.startServe(
            serveArguments, environment: environment, stderrPath: tmp.path("serve.err"))
    }

    /// Starts `passmint serve` and reads the port from its first line.
    private static func startServe(_ arguments: [String], environment: [String: String], stderrPath: String)
        throws -> (ManagedProcess, Int)
    {
        let serve = try ManagedProcess(
            "passmint serve", CLI.binary, arguments, environment: environment, stderrPath: stderrPath)
        let line = try serve.firstLine()
        guard let range = line.range(of: "http://127.0.0.1:"),
            let port = Int(line[range.upperBound...].prefix { $0.isNumber })
        else {
            throw ServeFailure("serve said '\(line)': \(serve.stderr)")
        }
        return (serve, port)
    }

    /// Kills `serve` with SIGKILL (a crash: no clean stop, nothing flushed) and starts it again on the same store
    /// and APNs stand-in; the new process listens on a new port.
    func killAndRestart() throws {
        serve.stop(grace: 0)
        (serve, port) = try Self.startServe(
            serveArguments, environment: serveEnvironment, stderrPath: tmp.path("serve-\(UUID().uuidString).err"))
    }

    /// Stops `serve` cleanly (SIGTERM) and starts it again on the same store and APNs stand-in with another
    /// signing identity (the options that follow the stand-in's in `serve`'s arguments are replaced).
    func restart(signingArguments: [String]) throws {
        serve.stop(grace: 5)
        guard let cut = serveArguments.firstIndex(where: { $0 == "--cert" || $0 == "--p12" }) else {
            throw ServeFailure("serve was started without identity options")
        }
        serveArguments = Array(serveArguments[..<cut]) + signingArguments
        (serve, port) = try Self.startServe(
            serveArguments, environment: serveEnvironment, stderrPath: tmp.path("serve-\(UUID().uuidString).err"))
    }

    /// Starts one more `serve` on the same store and APNs stand-in (another instance behind the balancer).
    func startInstance() throws -> (process: ManagedProcess, port: Int) {
        let instance = try Self.startServe(
            serveArguments, environment: serveEnvironment, stderrPath: tmp.path("serve-\(UUID().uuidString).err"))
        instances.append(instance)
        return instance
    }

    deinit { stop() }

    /// Stops `serve` (SIGTERM, then SIGKILL) and the stand-in; returns serve's exit status if it stopped cleanly.
    @discardableResult
    func stop() -> Int32? {
        for instance in instances { instance.process.stop(grace: 0) }
        let status = serve.stop(grace: 5)
        apns?.stop()
        return status
    }

    /// Issues a status pass into the store with this service's URL; returns the .pkpass path and its token.
    func generate(serial: String, set values: [String] = []) throws -> (path: String, token: String) {
        let out = tmp.path("\(serial).pkpass")
        let result = try CLI.passmint(
            ["generate", "--template", ServeTools.status] + storeArguments
                + [
                    "--web-service-url", base + "/", "--serial", serial,
                    "--out", out,
                ] + values.flatMap { ["--set", $0] } + DevIdentity.signingArgs)
        guard result.status == 0 else { throw ServeFailure("generate \(serial): \(result.stderr)") }
        guard let token = try ServeTools.passJSON(out)["authenticationToken"] as? String else {
            throw ServeFailure("generate \(serial): the pass has no authenticationToken")
        }
        return (out, token)
    }

    /// `passmint update SERIAL --set k=v… --db` against the running service's store.
    func update(_ serial: String, _ values: [String]) throws -> CLI.Result {
        try CLI.passmint(
            ["update", serial] + storeArguments + values.flatMap { ["--set", $0] } + DevIdentity.signingArgs)
    }

    /// The requests PushTestServer.py logged (connection lines left out).
    func apnsRequests() throws -> [[String: Any]] {
        try AppendedLog.records(ofFile: apnsLog).filter { $0["event"] == nil }
    }

    /// One request with curl, to this instance or to `base` (a proxy in front of it, with `curlOptions`).
    func http(
        _ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil, base: String? = nil,
        curlOptions: [String] = []
    ) throws -> HTTPReply {
        let id = UUID().uuidString
        let headerFile = tmp.path("h-\(id)"), bodyFile = tmp.path("b-\(id)")
        var args = [
            "-s", "-S", "--max-time", "30", "-X", method, "-D", headerFile, "-o", bodyFile, "-w", "%{http_code}",
        ]
        for (name, value) in headers { args += ["-H", "\(name): \(value)"] }
        if let body {
            if headers["Content-Type"] == nil { args += ["-H", "Content-Type: application/json"] }
            args += ["--data-binary", body]
        }
        let result = try CLI.run("curl", args + curlOptions + [(base ?? self.base) + path])
        guard result.status == 0, let status = Int(result.stdout) else {
            throw ServeFailure("curl \(method) \(path): \(result.stderr)")
        }
        let rawHeaders = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
        let block = rawHeaders.components(separatedBy: "\r\n\r\n").filter { !$0.isEmpty }.last ?? ""
        var parsed: [String: String] = [:]
        for line in block.components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            parsed[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = (try? Data(contentsOf: URL(fileURLWithPath: bodyFile))) ?? Data()
        return HTTPReply(status: status, headers: parsed, body: body)
    }

    /// `POST /v1/devices/D/registrations/PT/S` with an ApplePass token and push token.
    func register(device: String, serial: String, token: String, pushToken: String) throws -> HTTPReply {
        try http(
            "POST", "/v1/devices/\(device)/registrations/\(ServeTools.passType)/\(serial)",
            headers: ["Authorization": "ApplePass \(token)"], body: #"{"pushToken":"\#(pushToken)"}"#)
    }

    /// `GET /v1/devices/D/registrations/PT[?passesUpdatedSince=TAG]`.
    func list(device: String, since: String? = nil) throws -> HTTPReply {
        try http(
            "GET",
            "/v1/devices/\(device)/registrations/\(ServeTools.passType)"
                + (since.map { "?passesUpdatedSince=\($0)" } ?? ""))
    }

    /// `GET /v1/passes/PT/S` with an ApplePass token and an optional If-Modified-Since.
    func download(serial: String, token: String, ifModifiedSince: String? = nil) throws -> HTTPReply {
        var headers = ["Authorization": "ApplePass \(token)"]
        if let ifModifiedSince { headers["If-Modified-Since"] = ifModifiedSince }
        return try http("GET", "/v1/passes/\(ServeTools.passType)/\(serial)", headers: headers)
    }

    /// Number of rows in `table` matching `condition`, read with the sqlite3 CLI (psql for PostgreSQL).
    func count(_ table: String, where condition: String = "1=1") throws -> Int {
        let sql = "select count(*) from \(table) where \(condition)"
        if let postgres { return Int(try TestPostgres.psql(postgres, sql)) ?? -1 }
        return Int(try ServeTools.sqlite(db, sql)) ?? -1
    }
}

extension ServeFixture {
    /// The device tokens the APNs stand-in has received a push for.
    func pushedTokens() throws -> Set<String> {
        Set(try apnsRequests().compactMap { ($0["path"] as? String)?.split(separator: "/").last.map(String.init) })
    }
}
