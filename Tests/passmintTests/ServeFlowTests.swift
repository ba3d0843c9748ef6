import Foundation
import Testing

/// `passmint serve` end to end: real binaries, the Wallet device simulator, PushTestServer.py as APNs.
@Suite("serve: the whole device flow (end to end)", .serialized)
struct ServeFlowTests {
    static let steps = [
        "register", "register-again", "list", "download", "list-unchanged", "download-unchanged", "waiting",
        "list-since", "download-updated", "download-again", "unregister", "list-after",
    ]

    static func lines(_ path: String) -> [[String: Any]] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    static func field(_ pass: [String: Any], _ key: String) -> [String: Any]? {
        let generic = pass["generic"] as? [String: Any] ?? [:]
        for group in ["headerFields", "primaryFields", "secondaryFields", "auxiliaryFields", "backFields"] {
            for field in generic[group] as? [[String: Any]] ?? [] where field["key"] as? String == key {
                return field
            }
        }
        return nil
    }

    @Test(
        "three phones follow a Silver → Gold change made with passmint update: one push each, then the Gold pass",
        .enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing))
    func tierChangeReachesEveryPhone() throws {
        let f = try ServeFixture(python: TestTools.pythonWithH2)
        defer { f.stop() }
        let serial = "FLOW-0001"
        let issued = try f.generate(serial: serial, set: ["memberName=Ada Lovelace", "tier=Silver"])
        #expect(
            issued.token.count >= 32 && issued.token.allSatisfy(\.isHexDigit), "authenticationToken: \(issued.token)")
        let out = f.tmp.path("phones")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let simOut = f.tmp.path("simulator.jsonl"), pushed = f.tmp.path("pushed")
        let simulator = try ManagedProcess(
            "simulator", "python3",
            [
                ServeTools.simulator, "--pass", issued.path, "--devices", "3", "--device-prefix", "phone",
                "--token-prefix", "c0ffee", "--wait-file", pushed, "--timeout", "90", "--out-dir", out,
            ],
            stderrPath: f.tmp.path("simulator.err"), stdoutPath: simOut)
        defer { simulator.stop(grace: 0) }

        // The phones registered, listed and downloaded; now they wait for a push.
        let waiting = waitUntil(timeout: 60) {
            Self.lines(simOut).filter { $0["step"] as? String == "waiting" }.count == 3 || !simulator.process.isRunning
        }
        try #require(
            waiting && simulator.process.isRunning,
            "simulator before the push: \(Self.lines(simOut).last ?? [:]) \(simulator.stderr)")
        #expect(try f.count("registrations", where: "serial = '\(serial)'") == 3)
        #expect(try f.apnsRequests().isEmpty, "no push before the update")

        let update = try f.update(serial, ["tier=Gold"])
        #expect(update.status == 0, "\(update.stderr)")
        #expect(
            update.stdout.contains("tier: Silver → Gold") && update.stdout.contains("3 push(es) queued"),
            "\(update.stdout)")

        // APNs: exactly one POST per registered device, with Apple's headers and an empty JSON body.
        let arrived = try waitUntil(timeout: 20) { try f.apnsRequests().count >= 3 }
        try #require(
            arrived, "pushes at the stand-in: \((try? f.apnsRequests().count) ?? -1); serve: \(f.serve.stderr)")
        // A push leaves the outbox only once APNs answered it: with the outbox empty nothing more can be sent.
        let drained = try waitUntil(timeout: 20) { try f.count("push_outbox") == 0 }
        #expect(drained, "the outbox still holds \((try? f.count("push_outbox")) ?? -1) rows")
        let requests = try f.apnsRequests()
        #expect(requests.count == 3)
        let tokens = (0..<3).map { pushToken("c0ffee", $0) }
        #expect(Set(requests.compactMap { $0["path"] as? String }) == Set(tokens.map { "/3/device/\($0)" }))
        for request in requests {
            let headers = Dictionary(
                (request["headers"] as? [[String]] ?? []).map { ($0[0], $0[1]) }, uniquingKeysWith: { a, _ in a })
            #expect(request["method"] as? String == "POST")
            #expect(headers["apns-topic"] == ServeTools.passType)
            #expect(headers["apns-push-type"] == "background")
            #expect(headers["apns-priority"] == "5")
            #expect(request["body"] as? String == "{}")
            #expect(request["client_cn"] as? String == "Pass Type ID: \(ServeTools.passType)", "client certificate")
        }
        #expect(try waitUntil(timeout: 30) { try f.count("push_outbox") == 0 }, "outbox drained")

        // The phones pick up the change and finish the sequence.
        try Data().write(to: URL(fileURLWithPath: pushed))
        let status = simulator.waitForExit(timeout: 90)
        let simLines = Self.lines(simOut)
        try #require(status == 0, "simulator failed: \(simLines.last ?? [:]) \(simulator.stderr)")
        #expect(simLines.last?["result"] as? String == "ok")
        for device in ["phone0000", "phone0001", "phone0002"] {
            let mine = simLines.filter { $0["device"] as? String == device }
            #expect(mine.compactMap { $0["step"] as? String } == Self.steps, "\(device)")
            let updated = mine.first { $0["step"] as? String == "download-updated" }
            #expect(updated?["notifications"] as? [String] == ["You are now Gold"], "\(device)")
        }

        // The pass after the update: Gold tier, colours, thumbnails and change message; identity unchanged.
        let before = out + "/phone0000-1.pkpass", after = out + "/phone0000-2.pkpass"
        let old = try ServeTools.passJSON(before), new = try ServeTools.passJSON(after)
        let tierField = try #require(Self.field(new, "tier"))
        #expect(Self.field(old, "tier")?["value"] as? String == "Silver")
        #expect(tierField["value"] as? String == "Gold")
        #expect(tierField["changeMessage"] as? String == "You are now %@")
        let template =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: ServeTools.status + "/template.json"))) as? [String: Any]
        let tiers = (template?["tiers"] as? [String: Any])?["values"] as? [String: Any]
        let gold = try #require((tiers?["Gold"] as? [String: Any])?["pass"] as? [String: String])
        for key in ["backgroundColor", "foregroundColor", "labelColor"] {
            #expect(new[key] as? String == gold[key], "\(key)")
            #expect(old[key] as? String != gold[key], "\(key) was Silver before")
        }
        for key in ["serialNumber", "passTypeIdentifier", "authenticationToken", "webServiceURL"] {
            #expect(new[key] as? String == old[key] as? String, "\(key) must not change")
        }
        #expect(new["authenticationToken"] as? String == issued.token)
        #expect(new["serialNumber"] as? String == serial)
        for image in ["thumbnail.png", "thumbnail@2x.png", "thumbnail@3x.png"] {
            let goldBytes = try Data(contentsOf: URL(fileURLWithPath: ServeTools.status + "/tiers/gold/" + image))
            let silverBytes = try Data(contentsOf: URL(fileURLWithPath: ServeTools.status + "/tiers/silver/" + image))
            #expect(try ServeTools.entry(after, image, tmp: f.tmp) == goldBytes, "\(image) after the update")
            #expect(try ServeTools.entry(before, image, tmp: f.tmp) == silverBytes, "\(image) before the update")
        }
        #expect(try ServeTools.opensslVerifies(after, tmp: f.tmp), "openssl cms -verify of the updated pass")
        #expect(try f.count("registrations") == 0, "every phone unregistered")
        #expect(try f.count("devices") == 0, "devices without registrations are deleted")
        #expect(f.stop() == 0, "serve stops cleanly on SIGTERM: \(f.serve.stderr)")
    }
}
