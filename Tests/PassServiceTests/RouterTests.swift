import Testing

@testable import PassService

@Suite("Router")
struct RouterTests {
    let ok: Handler = { _ throws(HTTPError) in .empty(200) }

    @Test("the service's route table has no clashing patterns")
    func serviceTableIsValid() throws {
        let f = try StoreFixture()
        let service = try WalletService(configuration: .init(), store: f.store, renderer: TestRenderer())
        #expect(service.router.routes.count == 10)
    }

    @Test("clashing patterns are rejected", arguments: [
        ("/v1/passes/:a/:b", "/v1/passes/:x/:y"),
        ("/v1/passes/:a/:b", "/v1/passes/pass.x/:y"),
        ("/healthz", "/healthz"),
    ])
    func clashesRejected(first: String, second: String) {
        #expect(throws: ServiceError.self) {
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

    @Test("bad parameter segments are 400 material", arguments: [
        "/v1/passes//S1", "/v1/passes/pass.a/S%201", "/v1/passes/pass.a/S 1", "/v1/passes/pass.a/ä",
        "/v1/passes/pass.a/" + String(repeating: "x", count: 257),
    ])
    func badSegments(path: String) throws {
        let router = try Router(routes: [Route(.get, "/v1/passes/:passType/:serial", ok)])
        guard case .badSegment = router.match(method: .get, path: path) else {
            Issue.record("expected a bad segment for \(path)")
            return
        }
    }

    @Test("a 256-character segment is accepted")
    func longestSegment() throws {
        let router = try Router(routes: [Route(.get, "/p/:serial", ok)])
        guard case .found = router.match(method: .get, path: "/p/" + String(repeating: "x", count: 256)) else {
            Issue.record("expected a match")
            return
        }
    }
}
