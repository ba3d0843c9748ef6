import Foundation
import PassMintTestSupport
import Testing

/// `passmint trace` end to end: one scripted scenario per diagnosis, each driving the real `serve` with the Wallet
/// device simulator and PushTestServer.py as APNs, on SQLite and on PostgreSQL; `trace SERIAL --json` must name
/// that diagnosis and no other.
@Suite("passmint trace: one scenario per diagnosis (end to end)", .serialized)
struct ServeTraceTests {
    /// One scripted failure: what the phone does before the change, the change, what it does after, and the
    /// diagnoses the trace must give (exactly).
    struct Scenario: Sendable {
        var name: String
        /// Push tokens start with this; PushTestServer.py answers by prefix (400b, 400d, 403, 410, else 200).
        var tokenPrefix: String
        var before: [String]
        /// `--set` of the change; nil: no change.
        var change: String?
        var after: [String]
        var expected: [String]
        /// No phone at all.
        var noPhone = false
    }

    static let adminToken = String(repeating: "t", count: 40)
    static let ready = ["register", "list", "download"]
    static let scenarios: [Scenario] = [
        Scenario(
            name: "healthy", tokenPrefix: "aa", before: ready, change: "tier=Gold",
            after: ["list-since", "download-ims"],
            expected: []),
        Scenario(
            name: "not-acted-on", tokenPrefix: "a1", before: ready, change: "tier=Gold", after: [],
            expected: ["push.not-acted-on"]),
        Scenario(
            name: "serial-missing", tokenPrefix: "a2", before: ready, change: "tier=Gold",
            after: ["list-since=99999999"], expected: ["list.serial-missing"]),
        Scenario(
            name: "not-modified", tokenPrefix: "a3", before: ready, change: "tier=Gold",
            after: ["list-since", "download-ims=Fri, 01 Jan 2100 00:00:00 GMT"], expected: ["download.not-modified"]),
        Scenario(
            name: "silent", tokenPrefix: "a4", before: ready, change: "memberName=Grace Hopper",
            after: ["list-since", "download-ims"], expected: ["update.silent"]),
        Scenario(
            name: "bad-token", tokenPrefix: "400b", before: ready, change: "tier=Gold", after: [],
            expected: ["apns.bad-device-token"]),
        Scenario(
            name: "not-for-topic", tokenPrefix: "400d", before: ready, change: "tier=Gold", after: [],
            expected: ["apns.token-not-for-topic"]),
        Scenario(
            name: "forbidden", tokenPrefix: "403", before: ready, change: "tier=Gold", after: [],
            expected: ["apns.forbidden"]),
        Scenario(
            name: "unregistered", tokenPrefix: "410", before: ready, change: "tier=Gold", after: [],
            expected: ["apns.unregistered"]),
        Scenario(
            name: "phone-log", tokenPrefix: "a9",
            before: ready + [
                "log=[2026-01-05 10:00:00 +0000] Web service error for {passType} ({url}): Register task (for device "
                    + "{device}, pass type {passType}, serial number {serial}) encountered error: Unexpected response "
                    + "code 401"
            ], change: nil, after: [], expected: ["device.log-error"]),
        Scenario(
            name: "nobody", tokenPrefix: "", before: [], change: nil, after: [], expected: ["device.none-registered"],
            noPhone: true),
    ]

    static var backends: [String] { TestPostgres.url == nil ? ["sqlite"] : ["sqlite", "postgres"] }

    /// The codes `passmint trace SERIAL --json` names, in order.
    static func codes(_ f: ServeFixture, _ serial: String) throws -> (codes: [String], json: [String: Any]) {
        let result = try CLI.passmint(["trace", serial, "--json", "--window", "1"] + f.storeArguments)
        guard result.status == 0,
            let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        else { throw ServeFailure("trace \(serial): \(result.status) \(result.stderr)") }
        let codes = (json["diagnoses"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        return (codes, json)
    }

    @Test(
        "each failure mode, scripted with the simulator and the APNs stand-in, is the one diagnosis trace names",
        .enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing),
        .timeLimit(.minutes(6)), arguments: backends)
    func everyDiagnosis(backend: String) throws {
        let f = try ServeFixture(
            python: TestTools.pythonWithH2, environment: ["PASSMINT_ADMIN_TOKEN": Self.adminToken],
            postgres: backend == "postgres" ? try TestPostgres.freshSchema() : nil)
        defer { f.stop() }
        var failures: [String] = []
        for scenario in Self.scenarios {
            let serial = "TRACE-\(scenario.name)"
            let issued = try f.generate(serial: serial, set: ["memberName=Ada Lovelace", "tier=Silver"])
            if !scenario.noPhone { try run(scenario, serial: serial, pass: issued.path, f) }
            // Events reach the store in batches off the request path: wait for the trace to settle on the codes.
            var last: [String] = []
            let settled = try waitUntil(timeout: 30) {
                last = try Self.codes(f, serial).codes
                return last == scenario.expected
            }
            if !settled {
                let json = try Self.codes(f, serial).json
                failures.append(
                    "\(scenario.name): expected \(scenario.expected), trace named \(last): "
                        + String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self))
            }
        }
        // The dead token's registration was deleted with the 410; its registration is in the trace all the same.
        let gone = try Self.codes(f, "TRACE-unregistered").json["devices"] as? [[String: Any]] ?? []
        #expect(gone.count == 1 && gone.first?["registered"] as? Bool == false)
        #expect(
            (gone.first?["events"] as? [[String: Any]] ?? []).contains {
                $0["kind"] as? String == "registered" && $0["created"] as? Bool == true && $0["tag"] != nil
            }, "\(gone)")
        // Everything is written by now: each trace still names its one diagnosis (nothing came late).
        for scenario in Self.scenarios {
            let codes = try Self.codes(f, "TRACE-\(scenario.name)").codes
            if codes != scenario.expected { failures.append("\(scenario.name) later: \(codes)") }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n")); serve: \(f.serve.stderr.suffix(2000))")

        // The admin route gives the same trace: JSON by default, the CLI's text with ?format=text.
        let auth = ["Authorization": "Bearer \(Self.adminToken)"]
        let text = try f.http("GET", "/admin/v1/passes/TRACE-healthy/trace?format=text", headers: auth)
        let cli = try CLI.passmint(["trace", "TRACE-healthy"] + f.storeArguments)
        #expect(text.status == 200 && text.text == cli.stdout, "\(text.text)\n---\n\(cli.stdout)")
        #expect(cli.stdout.contains("field tier (STATUS): \"Silver\" → \"Gold\"; changeMessage \"You are now %@\""))
        let json = try f.http("GET", "/admin/v1/passes/TRACE-silent/trace?window=1", headers: auth)
        #expect(json.status == 200)
        let codes = (try json.json()["diagnoses"] as? [[String: Any]])?.compactMap { $0["code"] as? String }
        #expect(codes == ["update.silent"])
        #expect(try f.http("GET", "/admin/v1/passes/TRACE-silent/trace").status == 401)
        #expect(try f.http("GET", "/admin/v1/passes/NOPE/trace", headers: auth).status == 404)

        // /metrics: the push outcomes by APNs reason, and the age of the oldest push still waiting (the 403 one is
        // retried later, so it waits).
        let metrics = try f.http("GET", "/metrics").text
        for line in [
            #"passmint_push_results_total{result="unregistered",reason="BadDeviceToken"} 1"#,
            #"passmint_push_results_total{result="unregistered",reason="DeviceTokenNotForTopic"} 1"#,
            #"passmint_push_results_total{result="unregistered",reason="Unregistered"} 1"#,
            #"passmint_push_results_total{result="failed",reason="Forbidden"} 1"#,
        ] {
            #expect(metrics.contains(line), "\(line)")
        }
        let delivered = metrics.split(separator: "\n").first {
            $0.hasPrefix(#"passmint_push_results_total{result="delivered",reason=""}"#)
        }
        #expect(delivered.flatMap { Int($0.split(separator: " ").last ?? "") } == 5, "\(delivered ?? "none")")
        let oldest = metrics.split(separator: "\n").first { $0.hasPrefix("passmint_push_oldest_pending_seconds ") }
        let age = oldest.flatMap { Double($0.split(separator: " ").last ?? "") }
        #expect(age.map { $0 > 0 } == true, "\(oldest ?? "no gauge")")
        #expect(f.stop() == 0)
    }

    @Test(
        "a new registration writes no event (its row is its record, shown by trace with its tag); an unregistration stores it with the unregistration, a repeated registration is an event",
        .timeLimit(.minutes(2)), arguments: backends)
    func registrationRows(backend: String) throws {
        let f = try ServeFixture(
            python: nil, postgres: backend == "postgres" ? try TestPostgres.freshSchema() : nil)
        defer { f.stop() }
        let issued = try f.generate(serial: "REG-1")
        let keep = pushToken("ab", 1), leave = pushToken("cd", 2)
        #expect(try f.register(device: "keep", serial: "REG-1", token: issued.token, pushToken: keep).status == 201)
        #expect(try f.register(device: "leave", serial: "REG-1", token: issued.token, pushToken: leave).status == 201)
        #expect(try f.register(device: "leave", serial: "REG-1", token: issued.token, pushToken: leave).status == 200)
        let tag = try #require(try Self.codes(f, "REG-1").json["tag"] as? String)
        /// Device → its events' kinds and (for registrations) created/tag/push token, once `settled` holds.
        func events(until settled: @escaping ([String: [[String: Any]]]) -> Bool) throws -> [String: [[String: Any]]] {
            var devices: [String: [[String: Any]]] = [:]
            _ = try waitUntil(timeout: 20) {
                let json = try Self.codes(f, "REG-1").json
                devices = [:]
                for device in json["devices"] as? [[String: Any]] ?? [] {
                    devices[device["device"] as? String ?? "?"] = device["events"] as? [[String: Any]] ?? []
                }
                return settled(devices)
            }
            return devices
        }
        func registrations(_ events: [[String: Any]]?) -> [String] {
            (events ?? []).filter { $0["kind"] as? String == "registered" }.map {
                "\($0["created"] as? Bool ?? false) \($0["tag"] as? String ?? "-") \($0["pushToken"] as? String ?? "-")"
            }
        }
        var devices = try events { registrations($0["leave"]).count == 2 }
        #expect(registrations(devices["keep"]) == ["true \(tag) ab000000…"])
        #expect(registrations(devices["leave"]) == ["true \(tag) cd000000…", "false \(tag) cd000000…"])
        // Stored: the repeated registration only (the new ones are their rows).
        #expect(try f.count("pass_events", where: "kind = 'registered'") == 1)

        let removed = try f.http(
            "DELETE", "/v1/devices/leave/registrations/\(ServeTools.passType)/REG-1",
            headers: ["Authorization": "ApplePass \(issued.token)"])
        #expect(removed.status == 200)
        devices = try events { ($0["leave"] ?? []).contains { $0["kind"] as? String == "unregistered" } }
        #expect(registrations(devices["leave"]) == ["true \(tag) cd000000…", "false \(tag) cd000000…"])
        #expect((devices["leave"] ?? []).last?["kind"] as? String == "unregistered")
        #expect(registrations(devices["keep"]) == ["true \(tag) ab000000…"])
        #expect(try f.count("pass_events", where: "kind = 'registered'") == 2)
        #expect(try f.count("registrations") == 1)
        #expect(f.stop() == 0)
    }

    @Test("serve --no-pass-events records nothing; trace then shows the versions only")
    func eventsOff() throws {
        let f = try ServeFixture(python: nil, serveOptions: ["--no-pass-events"])
        defer { f.stop() }
        let issued = try f.generate(serial: "QUIET-1")
        #expect(
            try f.register(
                device: "quiet", serial: "QUIET-1", token: issued.token, pushToken: pushToken("ab", 1)
            )
            .status == 201)
        #expect(try f.download(serial: "QUIET-1", token: issued.token).status == 200)
        #expect(try f.update("QUIET-1", ["tier=Gold"]).status == 0)
        #expect(f.stop() == 0)  // a writer would flush on stop
        #expect(try f.count("pass_events") == 0)
        #expect(try f.count("pass_versions", where: "serial = 'QUIET-1'") == 2)
    }

    /// Runs the simulator through `scenario`: the steps before the change, the change and its push, the rest.
    func run(_ scenario: Scenario, serial: String, pass: String, _ f: ServeFixture) throws {
        let out = f.tmp.path("sim-\(scenario.name).jsonl"), pushed = f.tmp.path("pushed-\(scenario.name)")
        let steps = scenario.before + (scenario.change == nil ? [] : ["wait"]) + scenario.after
        let simulator = try ManagedProcess(
            "simulator \(scenario.name)", "python3",
            [
                ServeTools.simulator, "--pass", pass, "--device-prefix", "phone-\(scenario.name)-", "--token-prefix",
                scenario.tokenPrefix, "--wait-file", pushed, "--timeout", "60",
            ] + steps.flatMap { ["--step", $0] },
            stderrPath: f.tmp.path("sim-\(scenario.name).err"), stdoutPath: out)
        defer { simulator.stop(grace: 0) }
        if let change = scenario.change {
            let waiting = waitUntil(timeout: 30) {
                ServeFlowTests.lines(out).contains { $0["step"] as? String == "waiting" } || !simulator.isRunning
            }
            guard waiting, simulator.isRunning else {
                throw ServeFailure("\(scenario.name): simulator before the change: \(ServeFlowTests.lines(out))")
            }
            let updated = try f.update(serial, [change])
            guard updated.status == 0 else { throw ServeFailure("update \(serial): \(updated.stderr)") }
            let token = pushToken(scenario.tokenPrefix, 0)
            let answered = try waitUntil(timeout: 30) { try f.pushedTokens().contains(token) }
            guard answered else { throw ServeFailure("\(scenario.name): no push reached the stand-in") }
            try Data().write(to: URL(fileURLWithPath: pushed))
        }
        guard simulator.waitForExit(timeout: 60) == 0 else {
            throw ServeFailure("\(scenario.name): simulator: \(ServeFlowTests.lines(out)) \(simulator.stderr)")
        }
    }
}
