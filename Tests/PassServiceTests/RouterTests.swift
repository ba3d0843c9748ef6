import Testing
@testable import PassHTTP
@testable import PassService
import PassMintTestSupport

@Suite("Router")
struct RouterTests {
    let ok: Handler = { _ throws(HTTPError) in .empty(200) }

    @Test("the service's route table has no clashing patterns")
    func serviceTableIsValid() throws {
        let f = try StoreFixture()
        let service = try WalletService(configuration: .init(), store: f.store, renderer: TestRenderer())
        #expect(service.router.routes.count == 19)
    }

    @Test(
        "clashing patterns are rejected",
        arguments: [
            ("/v1/passes/:a/:b", "/v1/passes/:x/:y"),
            ("/v1/passes/:a/:b", "/v1/passes/pass.x/:y"),
            ("/healthz", "/healthz"),
        ])
    func clashesRejected(first: String, second: String) {
        #expect(throws: HTTPServerError.self) {
            _ = try Router(routes: [Route(.get, first, ok), Route(.get, second, ok)])
        }
    }

    @Test("same pattern with different methods, or different shapes, is fine")
    func nonClashing() throws {
        _ = try Router(routes: [
            Route(.get, "/a/:x", ok), Route(.patch, "/a/:x", ok), Route(.get, "/a/:x/b", ok), Route(.get, "/b/:x", ok),
        ])
    }

    @Test("matching fills parameters; 404, 405 with allowed methods, HEAD as GET")
    func matching() throws {
        let router = try Router(routes: [
            Route(.get, "/v1/passes/:passType/:serial", ok), Route(.delete, "/v1/passes/:passType/:serial", ok),
        ])
        guard case .found(_, let parameters) = router.match(method: .get, path: "/v1/passes/pass.a/S-1") else {
            Issue.record("no match")
            return
        }
        #expect(parameters["passType"] == "pass.a")
        #expect(parameters["serial"] == "S-1")
        guard case .found = router.match(method: .head, path: "/v1/passes/pass.a/S-1") else {
            Issue.record("HEAD did not match GET")
            return
        }
        guard case .methodNotAllowed(let allowed) = router.match(method: .post, path: "/v1/passes/a/b") else {
            Issue.record("expected 405")
            return
        }
        #expect(Set(allowed) == [.get, .delete, .head])
        guard case .notFound = router.match(method: .get, path: "/v1/passes/a") else {
            Issue.record("expected 404")
            return
        }
        guard case .notFound = router.match(method: .get, path: "/v1/passes/a/b/") else {
            Issue.record("expected 404 for trailing slash")
            return
        }
    }

    @Test(
        "bad parameter segments are 400 material",
        arguments: [
            "/v1/passes/%20/S1", "/v1/passes/pass.a/S%201", "/v1/passes/pass.a/S 1", "/v1/passes/pass.a/ä",
            "/v1/passes/pass.a/" + String(repeating: "x", count: 257),
        ])
    func badSegments(path: String) throws {
        let router = try Router(routes: [Route(.get, "/v1/passes/:passType/:serial", ok)])
        guard case .badSegment = router.match(method: .get, path: path) else {
            Issue.record("expected a bad segment for \(path)")
            return
        }
    }

    @Test(
        "repeated slashes anywhere are one slash: the same route as the plain path",
        arguments: ["//admin/v1/stats", "/admin/v1//stats", "/admin//v1/stats", "///admin///v1///stats"])
    func repeatedSlashes(path: String) throws {
        let router = try Router(routes: [Route(.get, "/admin/v1/stats", ok), Route(.get, "/v1/passes/:a/:b", ok)])
        guard case .found = router.match(method: .get, path: path) else {
            Issue.record("\(path) is not the stats route")
            return
        }
        guard case .found(_, let parameters) = router.match(method: .get, path: "/v1//passes//pass.a//S1") else {
            Issue.record("no match with doubled slashes around parameters")
            return
        }
        #expect(parameters["b"] == "S1")
    }

    @Test("a 256-character segment is accepted")
    func longestSegment() throws {
        let router = try Router(routes: [Route(.get, "/p/:token", ok)])
        guard case .found = router.match(method: .get, path: "/p/" + String(repeating: "x", count: 256)) else {
            Issue.record("expected a match")
            return
        }
    }

    @Test(
        "a path that decodes to a control byte, or has a bad escape, is malformed (400), never a shorter match",
        arguments: [
            "/v1/passes/pass.a/S1%00", "/v1/passes/pass.a/S1%00junk", "/v1/passes/pass.a/S1%0A",
            "/v1/passes/pass.a/S1\u{0}", "/v1/passes/pass.a/S1%zz", "/v1/passes/pass.a/S1%FF",
            "/v1/pas%00ses/pass.a/S1",
        ])
    func malformedPaths(path: String) throws {
        let router = try Router(routes: [Route(.get, "/v1/passes/:passType/:serial", ok)])
        guard case .malformedPath = router.match(method: .get, path: path) else {
            Issue.record("expected a malformed path for \(path.debugDescription)")
            return
        }
    }

    @Test("parameters reach the handler decoded, exactly as sent; %2F is no separator")
    func decodedParameters() throws {
        let router = try Router(routes: [Route(.get, "/v1/passes/:passType/:serial", ok)])
        guard case .found(_, let parameters) = router.match(method: .get, path: "/v1/%70asses/pass.a/S%2D%31") else {
            Issue.record("no match")
            return
        }
        #expect(parameters["serial"] == "S-1")
        guard case .badSegment(_, let message) = router.match(method: .get, path: "/v1/passes/pass.a/a%2Fb") else {
            Issue.record("%2F must not split the segment")
            return
        }
        #expect(message.contains("serial"))
    }

    @Test(
        "each parameter is checked against its own grammar before the handler",
        arguments: [
            ("/v1/devices/dev%20ice/registrations/pass.a/S1", "device"),
            ("/v1/devices/d1/registrations/com.example/S1", "passType"),
            ("/v1/devices/d1/registrations/pass.a/S%211", "serial"),
        ])
    func grammarPerParameter(path: String, parameter: String) throws {
        let router = try Router(routes: [Route(.post, "/v1/devices/:device/registrations/:passType/:serial", ok)])
        guard case .badSegment(_, let message) = router.match(method: .post, path: path) else {
            Issue.record("expected a bad \(parameter) in \(path)")
            return
        }
        #expect(message.hasPrefix("path parameter \(parameter) "))
    }
}
