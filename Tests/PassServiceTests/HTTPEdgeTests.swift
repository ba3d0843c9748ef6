import Foundation
import Testing
import Synchronization
@testable import PassStore
@testable import PassHTTP
@testable import PassService
import PassMintTestSupport

@Suite("HTTP edge over a live socket")
struct HTTPEdgeTests {
    @Test("404 unknown route, 405 with Allow, 400 bad segment, JSON error bodies")
    func routingErrors() throws {
        let live = try LiveService()
        let notFound = try live.request("GET", "/v2/nothing")
        #expect(notFound.status == 404)
        #expect(notFound.json?["error"] != nil)
        let wrongMethod = try live.request("PUT", "/v1/log")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("Allow") == "POST")
        let badSegment = try live.request("GET", "/v1/passes/pass.a/bad%21serial")
        #expect(badSegment.status == 400)
        let tooLong = try live.request("GET", "/v1/passes/pass.a/" + String(repeating: "x", count: 300))
        #expect(tooLong.status == 400)
    }

    @Test("bodies over 64 KB get 413, with and without Content-Length known up front")
    func bodyLimit() throws {
        let live = try LiveService()
        let big = [UInt8](repeating: UInt8(ascii: "a"), count: 70 * 1024)
        #expect(try live.request("POST", "/v1/log", body: big).status == 413)
        #expect(try live.request("POST", "/v1/log", headers: ["Transfer-Encoding": "chunked"], body: big).status == 413)
        #expect(try live.request("POST", "/v1/log", body: big, expectContinue: true).status == 413)
        let continued = try live.request(
            "POST", "/v1/log", body: jsonBody(["logs": [String(repeating: "c", count: 4000)]]),
            expectContinue: true)
        #expect(continued.status == 200)
        let fits = jsonBody(["logs": [String(repeating: "b", count: 60 * 1024)]])
        #expect(try live.request("POST", "/v1/log", body: fits).status == 200)
    }

    @Test("oversized request headers are refused, not answered with a 5xx")
    func headerLimit() throws {
        let live = try LiveService()
        let response = try live.request("GET", "/healthz", headers: ["X-Big": String(repeating: "h", count: 40 * 1024)])
        #expect((400..<500).contains(response.status))
    }

    @Test("metrics: requests by route and status, registrations, pushes, outbox depth")
    func metrics() throws {
        let live = try LiveService()
        let pass = try live.addPass("S1")
        _ = try live.request(
            "POST", "/v1/devices/d1/registrations/\(passType)/S1", headers: applePass(pass),
            body: jsonBody(["pushToken": "abcd"]))
        _ = try live.request("GET", "/v1/passes/\(passType)/S1")
        _ = try live.request("GET", "/nowhere")
        live.service.metrics.recordPush(result: "sent")
        _ = try live.store.updateRecord(serial: "S1", record: ["tier": "Gold"])
        let response = try live.request("GET", "/metrics")
        #expect(response.status == 200)
        #expect(response.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        let text = response.text
        #expect(
            text.contains(
                #"passmint_http_requests_total{route="POST /v1/devices/:device/registrations/:passType/:serial",status="201"} 1"#
            ))
        #expect(
            text.contains(#"passmint_http_requests_total{route="GET /v1/passes/:passType/:serial",status="401"} 1"#))
        #expect(text.contains(#"passmint_http_requests_total{route="unmatched",status="404"} 1"#))
        #expect(text.contains("passmint_registrations 1\n"))
        #expect(text.contains(#"passmint_pushes_total{result="sent"} 1"#))
        #expect(text.contains("passmint_push_outbox_depth 1\n"))
        #expect(!text.contains(pass.authenticationToken))
    }

    @Test("port 0 binds a free port; two services run side by side; stop releases the port")
    func ports() throws {
        let a = try LiveService(), b = try LiveService()
        #expect(a.port != b.port)
        #expect(a.port > 0)
        a.service.stop()
        #expect(a.service.boundPort == nil)
        #expect(try b.request("GET", "/healthz").status == 200)
    }

    @Test("binding an invalid host fails with a clear error")
    func badHost() throws {
        let f = try StoreFixture()
        let service = try WalletService(
            configuration: ServiceConfiguration(host: "not-an-address", port: 0), store: f.store,
            renderer: TestRenderer())
        #expect(throws: HTTPServerError.self) { try service.start() }
    }
}

@Suite("HTTP connection behaviour")
struct HTTPConnectionTests {
    @Test("keep-alive: curl reuses one connection for consecutive requests")
    func keepAlive() throws {
        let live = try LiveService()
        let url = "http://127.0.0.1:\(live.port)/healthz"
        let log = try CLI.run("/usr/bin/curl", ["-sv", "-o", "/dev/null", "-o", "/dev/null", url, url]).stderr
        #expect(log.contains("Re-using existing connection") || log.contains("Reusing existing connection"))
    }

    @Test("parallel registrations over HTTP for one device and pass create one row")
    func parallelRegistrations() throws {
        let live = try LiveService()
        let pass = try live.addPass("S1")
        let codes = runParallelRegistrations(port: live.port, pass: pass, count: 8) { _ in "dev1" }
        #expect(codes.filter { $0 == "201" }.count == 1)
        #expect(codes.filter { $0 == "200" }.count == 7)
        #expect(try live.store.registrationsCount() == 1)
    }

    @Test(
        "registrations of 48 devices at once all get 201 through the write workers, and with none (inline)",
        arguments: [16, 0])
    func manyDevicesInParallel(writeWorkers: Int) throws {
        let live = try LiveService(
            configuration: ServiceConfiguration(host: "127.0.0.1", port: 0, writeWorkers: writeWorkers))
        let pass = try live.addPass("S1")
        let codes = runParallelRegistrations(port: live.port, pass: pass, count: 48)
        #expect(codes == Array(repeating: "201", count: 48))
        #expect(try live.store.registrationsCount() == 48)
    }

    @Test("stopping while registrations are in flight neither crashes nor loses an acknowledged one")
    func stopWithRequestsInFlight() throws {
        let live = try LiveService()
        let pass = try live.addPass("S1")
        let port = live.port
        let result = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        Thread {
            result.withLock { $0 = runParallelRegistrations(port: port, pass: pass, count: 40) }
            done.signal()
        }.start()
        try waitUntil(timeout: 10) { try live.store.registrationsCount() > 0 }
        live.service.stop()
        done.wait()
        let codes = result.withLock { $0 }
        let acknowledged = codes.filter { $0 == "201" }.count
        // Each 201 was committed before it was sent; the others never reached a handler or found it stopped.
        #expect(try live.store.registrationsCount() >= acknowledged)
        #expect(codes.allSatisfy { ["201", "000", "503"].contains($0) }, "\(codes)")
    }
}

/// POSTs `count` registrations of `pass` at once with curl, the i-th for device `device(i)` (dev0… unless told)
/// with push token ab000i; returns the status codes ("000": no answer).
private func runParallelRegistrations(
    port: Int, pass: StoredPass, count: Int, device: (Int) -> String = { "dev\($0)" }
) -> [String] {
    let processes = (0..<count).map { i -> Process in
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = [
            "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "-H",
            "Authorization: ApplePass \(pass.authenticationToken)", "--data-binary",
            "{\"pushToken\":\"\(String(format: "ab%04x", i))\"}",
            "http://127.0.0.1:\(port)/v1/devices/\(device(i))/registrations/\(passType)/\(pass.serialNumber)",
        ]
        process.standardOutput = Pipe()
        return process
    }
    for process in processes { try? process.run() }
    return processes.map { process in
        let pipe = process.standardOutput as! Pipe
        let code = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return code
    }
}
