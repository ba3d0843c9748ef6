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
