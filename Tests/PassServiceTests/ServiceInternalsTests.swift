import Foundation
import Testing
import PassArchive
@testable import PassHTTP
@testable import PassService
import PassMintTestSupport

@Suite("Service internals")
struct ServiceInternalsTests {
    @Test("render cache returns what was stored, checks the serial, and evicts the oldest beyond its bounds")
    func renderCache() {
        let cache = RenderCache(maxEntries: 2, maxBytes: 1000)
        cache.insert(serial: "A", tag: 1, body: ArchiveParts([1]), identityGeneration: 0)
        cache.insert(serial: "B", tag: 2, body: ArchiveParts([2]), identityGeneration: 0)
        #expect(cache.body(serial: "A", tag: 1, identityGeneration: 0)?.bytes == [1])
        #expect(cache.body(serial: "B", tag: 1, identityGeneration: 0) == nil)
        cache.insert(serial: "C", tag: 3, body: ArchiveParts([3]), identityGeneration: 0)
        #expect(cache.count == 2)
        #expect(cache.body(serial: "A", tag: 1, identityGeneration: 0) == nil)
        #expect(cache.body(serial: "C", tag: 3, identityGeneration: 0)?.bytes == [3])

        let small = RenderCache(maxEntries: 10, maxBytes: 5)
        small.insert(serial: "A", tag: 1, body: ArchiveParts([1, 2, 3]), identityGeneration: 0)
        small.insert(serial: "B", tag: 2, body: ArchiveParts([1, 2, 3]), identityGeneration: 0)
        #expect(small.count == 1)
        #expect(small.body(serial: "B", tag: 2, identityGeneration: 0) != nil)
    }

    @Test("metrics text is valid Prometheus exposition with escaped labels")
    func metricsText() {
        let metrics = Metrics()
        metrics.recordRequest(route: "GET /healthz", status: 200)
        metrics.recordRequest(route: "GET /healthz", status: 200)
        metrics.recordPush(result: "delivered")
        metrics.recordPush(result: "odd\"label")
        let text = metrics.render(registrations: 7, outboxDepth: nil)
        #expect(text.contains("passmint_http_requests_total{route=\"GET /healthz\",status=\"200\"} 2\n"))
        #expect(text.contains("passmint_pushes_total{result=\"delivered\"} 1\n"))
        #expect(text.contains("passmint_pushes_total{result=\"odd\\\"label\"} 1\n"))
        #expect(text.contains("passmint_registrations 7\n"))
        #expect(!text.contains("passmint_push_outbox_depth"))
        #expect(metrics.requestCount(route: "GET /healthz", status: 200) == 2)
        #expect(metrics.pushCount(result: "delivered") == 1)
    }

    @Test("constant-time comparison is correct for equal, different and prefix strings")
    func constantTime() {
        #expect(constantTimeEquals("abc", "abc"))
        #expect(!constantTimeEquals("abd", "abc"))
        #expect(!constantTimeEquals("ab", "abc"))
        #expect(!constantTimeEquals("abcd", "abc"))
        #expect(!constantTimeEquals("", "abc"))
    }

    @Test("in-process respond(to:) routes like the server and logs every request in metrics")
    func inProcess() throws {
        let f = try StoreFixture()
        let service = try WalletService(configuration: .init(), store: f.store, renderer: TestRenderer())
        #expect(service.respond(to: Request(method: .get, path: "/healthz")).status == 200)
        #expect(service.respond(to: Request(method: .post, path: "/healthz")).status == 405)
        #expect(service.respond(to: Request(method: .get, path: "//healthz")).status == 200)
        #expect(service.metrics.requestCount(route: "GET /healthz", status: 200) == 2)
    }
}
