import Foundation
import Testing
import PassModel
@testable import PassHTTP
@testable import PassService
import PassMintTestSupport

@Suite("Access log")
struct AccessLogTests {
    @Test("a line is one JSON object: UTC time with milliseconds, method, route, status, bytes, duration_ms")
    func lineFormat() throws {
        var out: [UInt8] = []
        AccessLogLine.write(
            into: &out, time: (1_800_000_000, 7), method: "GET", route: "GET /v1/passes/:passType/:serial",
            status: 304, bytes: 0, duration: .microseconds(1500))
        #expect(
            String(decoding: out, as: UTF8.self)
                == #"{"time":"2027-01-15T08:00:00.007Z","method":"GET","route":"GET /v1/passes/:passType/:serial","#
                + #""status":304,"bytes":0,"duration_ms":1.500}"# + "\n")
        out = []
        AccessLogLine.write(
            into: &out, time: (0, 999), method: "BR\"EW", route: "unmatched", status: 405, bytes: 12345,
            duration: .seconds(2) + .nanoseconds(345_678))
        let object = try #require(try JSONReader.parse(out).value.objectValue)
        #expect(object["method"] == "BR\"EW")
        #expect(object["time"] == "1970-01-01T00:00:00.999Z")
        #expect(object["bytes"] == 12345)
        #expect(object["duration_ms"]?.doubleValue == 2000.345)
    }

    /// Requests that carry every kind of secret PassMint sees, through the real routing, into a real log file.
    @Test("the log names route patterns and never a token, an Authorization value, a push token or a path value")
    func noSecrets() throws {
        let f = try StoreFixture()
        let logPath = f.directory.path("access.jsonl")
        let adminToken = "admin-token-9f8e7d6c5b4a39281706f5e4d3c2b1a0"
        let service = try WalletService(
            configuration: ServiceConfiguration(accessLog: try AccessLog(.file(logPath))), store: f.store,
            renderer: TestRenderer(), environment: ["PASSMINT_ADMIN_TOKEN": adminToken])
        let serial = "SERIAL-SECRET-7731"
        try f.store.insertPasses([samplePass(serial)])
        let pass = try #require(try f.store.pass(serial: serial))
        let device = "d3v1ce0123456789abcdef0123456789"
        let pushToken = "f00dfeed" + String(repeating: "ab", count: 28)
        let apple: HTTPHeaders = ["Authorization": "ApplePass \(pass.authenticationToken)"]
        let registration = "/v1/devices/\(device)/registrations/\(passType)/\(serial)"
        let requests: [Request] = [
            Request(method: .post, path: registration, headers: apple, body: jsonBody(["pushToken": pushToken])),
            Request(
                method: .get, path: "/v1/devices/\(device)/registrations/\(passType)",
                query: [("passesUpdatedSince", "0")]),
            Request(method: .get, path: "/v1/passes/\(passType)/\(serial)", headers: apple),
            Request(
                method: .get, path: "/v1/passes/\(passType)/\(serial)",
                headers: ["Authorization": "ApplePass wrong-\(pass.authenticationToken)"]),
            Request(
                method: .get, path: "/admin/v1/passes/\(serial)", headers: ["Authorization": "Bearer \(adminToken)"]),
            Request(method: .get, path: "/v1/passes/\(passType)/\(serial)%00"),
            Request(method: .put, path: "/v1/passes/\(passType)/\(serial)"),
            Request(method: .get, path: "/nowhere/\(device)"),
            Request(method: .delete, path: registration, headers: apple),
        ]
        let statuses = requests.map { service.respond(to: $0).status }
        #expect(statuses == [201, 200, 200, 401, 200, 400, 405, 404, 200])
        service.stop()

        let text = try String(contentsOfFile: logPath, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.count == requests.count, "one line per answered request: \(text)")
        for secret in [
            pass.authenticationToken, adminToken, pushToken, device, serial, passType, "ApplePass", "Bearer",
        ] {
            #expect(!text.contains(secret), "\(secret) is in the access log: \(text)")
        }
        let objects = try lines.map { try #require(try JSONReader.parse(String($0)).value.objectValue) }
        for object in objects {
            #expect(Set(object.keys) == ["time", "method", "route", "status", "bytes", "duration_ms"])
        }
        #expect(
            objects.map { $0["route"]?.stringValue ?? "" } == [
                "POST /v1/devices/:device/registrations/:passType/:serial",
                "GET /v1/devices/:device/registrations/:passType",
                "GET /v1/passes/:passType/:serial", "GET /v1/passes/:passType/:serial", "GET /admin/v1/passes/:serial",
                "unmatched", "unmatched", "unmatched",
                "DELETE /v1/devices/:device/registrations/:passType/:serial",
            ])
        #expect(objects.map { $0["status"] } == statuses.map { JSONValue.integer(Int64($0)) })
        #expect(objects[2]["bytes"] == .integer(Int64(try TestRenderer().render(pass).count)))
        #expect(objects[6]["method"] == "PUT")
    }

    @Test("the file is created 0600 and appended to; lines reach it within the flush interval without a stop")
    func fileModeAppendAndFlush() throws {
        let directory = try TempDir()
        let path = directory.path("access.jsonl")
        try Data("earlier line\n".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let fresh = directory.path("fresh.jsonl")
        let created = try AccessLog(.file(fresh))
        #expect(try FileManager.default.attributesOfItem(atPath: fresh)[.posixPermissions] as? Int == 0o600)
        withExtendedLifetime(created) {}

        let log = try AccessLog(.file(path), flushInterval: .milliseconds(20))
        log.record(method: .get, route: "GET /healthz", status: 200, bytes: 3, duration: .microseconds(80))
        let written = waitUntil(timeout: 10) {
            ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").contains(#""route":"GET /healthz""#)
        }
        #expect(written)
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("earlier line\n{"))
    }

    @Test("a file that cannot be opened is an error naming it")
    func unopenable() {
        #expect(
            throws: HTTPServerError.accessLog(
                path: "/nonexistent-dir/access.jsonl", errno: ENOENT)
        ) {
            _ = try AccessLog(.file("/nonexistent-dir/access.jsonl"))
        }
    }

    @Test("the live server logs each request it answers, HEAD and requests refused for their size included")
    func live() throws {
        let directory = try TempDir()
        let path = directory.path("live.jsonl")
        var configuration = ServiceConfiguration(host: "127.0.0.1", port: 0)
        configuration.accessLog = try AccessLog(.file(path))
        configuration.limits = RequestLimits(maxURLBytes: 100, maxBodyBytes: 1000)
        let live = try LiveService(configuration: configuration)
        #expect(try live.request("GET", "/healthz").status == 200)
        #expect(try live.request("HEAD", "/healthz").status == 200)
        #expect(try live.request("GET", "/missing").status == 404)
        // Answered by the server adapter itself, before any route: still logged, and counted in /metrics.
        #expect(try live.request("GET", "/v1/log?" + String(repeating: "q", count: 200)).status == 414)
        #expect(try live.request("POST", "/v1/log", body: Array(repeating: 0x20, count: 2000)).status == 413)
        live.service.stop()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let summary = try lines.map { line -> String in
            let object = try #require(try JSONReader.parse(String(line)).value.objectValue)
            let status = object["status"]?.doubleValue.map { String(Int($0)) } ?? "-"
            return "\(object["method"]?.stringValue ?? "") \(object["route"]?.stringValue ?? "") \(status)"
        }
        #expect(
            summary == [
                "GET GET /healthz 200", "HEAD GET /healthz 200", "GET unmatched 404", "GET unmatched 414",
                "POST unmatched 413",
            ])
        #expect(live.service.metrics.requestCount(route: "unmatched", status: 414) == 1)
        #expect(live.service.durations.count(route: live.service.durations.unmatched) == 3)
    }
}
