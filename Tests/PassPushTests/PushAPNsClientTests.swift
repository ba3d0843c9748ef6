import Foundation
import Testing
@testable import PassStore
@testable import PassPush

/// APNsClient against real HTTP/2 TLS servers: PushTestServer.py (scriptable answers) and nghttpd.
@Suite("APNs client", .serialized)
struct PushAPNsClientTests {
    static let expectedHeaders: [(String, String)] = [
        ("apns-topic", PushTestTools.passType), ("apns-push-type", "background"), ("apns-priority", "5"),
        ("apns-expiration", "0"), ("content-type", "application/json"),
    ]

    func jobs(_ tokens: [String], firstID: Int64 = 1) -> [PushJob] {
        tokens.enumerated().map { index, token in
            PushJob(
                id: firstID + Int64(index), pushToken: token, passTypeIdentifier: PushTestTools.passType, attempts: 0)
        }
    }

    @Test(
        "200 pushes: exact headers and body on every request, one TLS connection, client certificate presented",
        .enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing))
    func headersBodyAndOneConnection() throws {
        let scratch = try TempDir()
        let pki = try PushTestPKI(in: scratch)
        let server = try PushScriptServer(python: TestTools.pythonWithH2!, pki: pki, scratch: scratch)
        defer { server.stop() }
        let client = try APNsClient(configuration: pki.configuration(port: server.port, maxConcurrentStreams: 50))
        let tokens = (0..<200).map { pushToken("aa", $0) }
        let results = client.send(jobs(tokens))

        #expect(results.map(\.outcome) == Array(repeating: .delivered, count: 200))
        #expect(results.map(\.job.pushToken) == tokens)
        #expect(results.allSatisfy { $0.status == 200 && UUID(uuidString: $0.apnsID ?? "") != nil })
        let requests = try server.requests()
        #expect(requests.count == 200)
        #expect(Set(requests.compactMap(\.path)) == Set(tokens.map { "/3/device/\($0)" }))
        for request in requests {
            #expect(request.method == "POST")
            #expect(request.body == "{}")
            #expect(request.client_cn == PushTestTools.passType)
            let headers = request.plainHeaders.filter { $0.0 != "content-length" && $0.0 != "user-agent" }
            #expect(headers.map(\.0) == Self.expectedHeaders.map(\.0))
            #expect(headers.map(\.1) == Self.expectedHeaders.map(\.1))
        }
        #expect(try server.connections().count == 1)
        #expect(Set(requests.map(\.connection)).count == 1)
        #expect(client.connectionsOpened == 1)
    }

    @Test(
        "the connection stays open across send calls",
        .enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing))
    func connectionReused() throws {
        let scratch = try TempDir()
        let pki = try PushTestPKI(in: scratch)
        let server = try PushScriptServer(python: TestTools.pythonWithH2!, pki: pki, scratch: scratch)
        defer { server.stop() }
        let client = try APNsClient(configuration: pki.configuration(port: server.port))
        for round in 0..<3 {
            let results = client.send(jobs((0..<5).map { pushToken("ab", round * 10 + $0) }))
            #expect(results.allSatisfy { $0.outcome == .delivered })
        }
        #expect(try server.requests().count == 15)
        #expect(try server.connections().count == 1)
        #expect(client.connectionsOpened == 1)
    }

    @Test(
        "answers map to delivered / unregistered / retry / failed; an invalid token is never sent",
        .enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing))
    func resultMapping() throws {
        let scratch = try TempDir()
        let pki = try PushTestPKI(in: scratch)
        let server = try PushScriptServer(python: TestTools.pythonWithH2!, pki: pki, scratch: scratch)
        defer { server.stop() }
        let client = try APNsClient(configuration: pki.configuration(port: server.port))
        let cases: [(String, Int, PushOutcome)] = [
            (pushToken("aa", 1), 200, .delivered),
            (pushToken("410", 2), 410, .unregistered(reason: "Unregistered")),
            (pushToken("400b", 3), 400, .unregistered(reason: "BadDeviceToken")),
            (pushToken("400d", 4), 400, .unregistered(reason: "DeviceTokenNotForTopic")),
            (pushToken("400a", 5), 400, .failed(reason: "BadTopic")),
            (pushToken("403", 6), 403, .failed(reason: "Forbidden")),
            (pushToken("429", 7), 429, .retry(reason: "TooManyRequests")),
            (pushToken("500", 8), 500, .retry(reason: "InternalServerError")),
            (pushToken("503", 9), 503, .retry(reason: .status(503))),
            ("not-hex/../../x", 0, .unregistered(reason: .malformedDeviceToken)),
        ]
        let results = client.send(jobs(cases.map(\.0)))
        #expect(results.map(\.status) == cases.map(\.1))
        #expect(results.map(\.outcome) == cases.map(\.2))
        #expect(results.map(\.job.id) == Array(1...10))
        let paths = try server.requests().compactMap(\.path)
        #expect(paths.count == 9)
        #expect(!paths.contains { $0.contains("not-hex") })
    }

    @Test(
        "a client certificate from another CA is refused by the server: transport error, retry, nothing received",
        .enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing))
    func clientCertificateRequired() throws {
        let scratch = try TempDir()
        let pki = try PushTestPKI(in: scratch)
        let server = try PushScriptServer(python: TestTools.pythonWithH2!, pki: pki, scratch: scratch)
        defer { server.stop() }
        var configuration = pki.configuration(port: server.port)
        configuration.credential = .pemFiles(certificate: pki.rogueCert, key: pki.rogueKey, keyPassword: nil)
        let results = try APNsClient(configuration: configuration).send(jobs([pushToken("aa", 1)]))
        #expect(results.count == 1)
        guard case .retry(let reason) = results[0].outcome else {
            Issue.record("expected a retry, got \(results[0].outcome)")
            return
        }
        guard case .transport = reason else {
            Issue.record("expected a transport failure, got \(reason)")
            return
        }
        #expect(try server.requests().isEmpty)
    }

    @Test(
        "the server certificate is verified: without --apns-ca the test CA is not trusted",
        .enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing))
    func serverVerified() throws {
        let scratch = try TempDir()
        let pki = try PushTestPKI(in: scratch)
        let server = try PushScriptServer(python: TestTools.pythonWithH2!, pki: pki, scratch: scratch)
        defer { server.stop() }
        var configuration = pki.configuration(port: server.port)
        configuration.caFile = nil
        let results = try APNsClient(configuration: configuration).send(jobs([pushToken("aa", 1)]))
        #expect(results.map(\.outcome.label) == ["retry"])
        #expect(try server.requests().isEmpty)
    }

    @Test(
        "in-memory PEM certificate and key (no key file needed)",
        .enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing))
    func inMemoryCredential() throws {
        let scratch = try TempDir()
        let pki = try PushTestPKI(in: scratch)
        let server = try PushScriptServer(python: TestTools.pythonWithH2!, pki: pki, scratch: scratch)
        defer { server.stop() }
        let cert = Array(try Data(contentsOf: URL(fileURLWithPath: pki.clientCert)))
        let key = Array(try Data(contentsOf: URL(fileURLWithPath: pki.clientKey)))
        try FileManager.default.removeItem(atPath: pki.clientKey)
        var configuration = pki.configuration(port: server.port)
        configuration.credential = .pemData(certificate: cert, key: key)
        let results = try APNsClient(configuration: configuration).send(
            jobs((0..<3).map { pushToken("ac", $0) }))
        #expect(results.map(\.outcome) == [.delivered, .delivered, .delivered])
        #expect(try server.requests().map(\.client_cn) == Array(repeating: PushTestTools.passType, count: 3))
    }

    @Test(
        "nghttpd --verify-client -v: 200 pushes, all 200, one connection, every request carries the APNs headers",
        .enabled(if: TestTools.hasNghttpd, TestTools.nghttpdMissing))
    func nghttpdOneConnection() throws {
        let scratch = try TempDir()
        let pki = try PushTestPKI(in: scratch)
        let server = try PushNghttpd(pki: pki, scratch: scratch, verbose: true)
        defer { server.stop() }
        let client = try APNsClient(configuration: pki.configuration(port: server.port))
        let results = client.send(jobs((0..<200).map { pushToken("ad", $0) }))
        #expect(results.allSatisfy { $0.outcome == .delivered && $0.status == 200 })
        server.stop()
        let lines = try server.log().split(separator: "\n")
        let requestLines = lines.filter { $0.contains("recv (stream_id=") }
        let connectionIDs = Set(requestLines.compactMap { $0.split(separator: "]").first })
        #expect(connectionIDs.count == 1)
        for (name, value) in Self.expectedHeaders {
            #expect(requestLines.filter { $0.hasSuffix("\(name): \(value)") }.count == 200)
        }
        #expect(requestLines.filter { $0.hasSuffix(":method: POST") }.count == 200)
        #expect(!requestLines.contains { $0.contains(" accept: ") })
        #expect(client.connectionsOpened == 1)
    }

    @Test(
        "speed: 10,000 pushes to nghttpd (set PASSMINT_PUSH_BENCH=1)",
        .enabled(
            if: ProcessInfo.processInfo.environment["PASSMINT_PUSH_BENCH"] != nil && TestTools.hasNghttpd,
            "set PASSMINT_PUSH_BENCH=1 (needs nghttpd) to measure"))
    func tenThousand() throws {
        let scratch = try TempDir()
        let pki = try PushTestPKI(in: scratch)
        let server = try PushNghttpd(pki: pki, scratch: scratch, verbose: false, maxStreams: 1000)
        defer { server.stop() }
        let client = try APNsClient(configuration: pki.configuration(port: server.port))
        let all = jobs((0..<10_000).map { pushToken("ae", $0) })
        let start = Date()
        let results = client.send(all)
        let seconds = Date().timeIntervalSince(start)
        print("APNs fan-out: 10,000 pushes in \(String(format: "%.2f", seconds)) s = \(Int(10_000 / seconds)) pushes/s")
        #expect(results.filter { $0.outcome == .delivered }.count == 10_000)
        #expect(client.connectionsOpened == 1)
        #expect(seconds < 5)
    }
}
