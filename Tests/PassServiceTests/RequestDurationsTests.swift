import Foundation
import Testing
@testable import PassHTTP
@testable import PassService
import PassMintTestSupport

@Suite("Request duration histograms")
struct RequestDurationsTests {
    @Test("durations land in their buckets; the text is cumulative with +Inf, _sum and _count; idle routes are omitted")
    func buckets() {
        let durations = RequestDurations(routes: ["GET /healthz", "GET /metrics"])
        durations.record(route: 0, duration: .microseconds(200))  // ≤ 0.0005
        durations.record(route: 0, duration: .microseconds(500))  // ≤ 0.0005: bounds are inclusive
        durations.record(route: 0, duration: .milliseconds(3))  // ≤ 0.005
        durations.record(route: 0, duration: .seconds(9))  // +Inf only
        durations.record(route: durations.unmatched, duration: .milliseconds(30))
        let text = durations.render { "\"\($0)\"" }
        let healthz = #"route="GET /healthz""#
        #expect(text.contains("passmint_http_request_duration_seconds_bucket{\(healthz),le=\"0.0005\"} 2\n"))
        #expect(text.contains("passmint_http_request_duration_seconds_bucket{\(healthz),le=\"0.0025\"} 2\n"))
        #expect(text.contains("passmint_http_request_duration_seconds_bucket{\(healthz),le=\"0.005\"} 3\n"))
        #expect(text.contains("passmint_http_request_duration_seconds_bucket{\(healthz),le=\"5\"} 3\n"))
        #expect(text.contains("passmint_http_request_duration_seconds_bucket{\(healthz),le=\"+Inf\"} 4\n"))
        #expect(text.contains("passmint_http_request_duration_seconds_sum{\(healthz)} 9.0037\n"))
        #expect(text.contains("passmint_http_request_duration_seconds_count{\(healthz)} 4\n"))
        #expect(text.contains(#"passmint_http_request_duration_seconds_count{route="unmatched"} 1"#))
        #expect(!text.contains("GET /metrics"))
        #expect(text.hasPrefix("# HELP passmint_http_request_duration_seconds "))
        #expect(text.contains("# TYPE passmint_http_request_duration_seconds histogram\n"))
        let buckets = text.split(separator: "\n").filter { $0.contains("_bucket{\(healthz)") }
        #expect(buckets.count == RequestDurations.bounds.count + 1)
    }

    @Test("counts from many threads at once are all kept")
    func concurrent() async {
        let durations = RequestDurations(routes: ["GET /healthz"])
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for i in 0..<10_000 { durations.record(route: 0, duration: .microseconds((task * 131 + i) % 7000)) }
                }
            }
        }
        #expect(durations.count(route: 0) == 80_000)
    }

    @Test("/metrics has one histogram per route that answered, with the route pattern as label")
    func inService() throws {
        let f = try StoreFixture()
        let service = try WalletService(configuration: .init(), store: f.store, renderer: TestRenderer())
        _ = service.respond(to: Request(method: .get, path: "/healthz"))
        _ = service.respond(to: Request(method: .get, path: "/v1/passes/pass.a.b/S-1"))
        _ = service.respond(to: Request(method: .get, path: "/nowhere"))
        let text = String(
            decoding: service.respond(to: Request(method: .get, path: "/metrics")).body.array, as: UTF8.self)
        #expect(text.contains(#"passmint_http_request_duration_seconds_count{route="GET /healthz"} 1"#))
        #expect(
            text.contains(#"passmint_http_request_duration_seconds_count{route="GET /v1/passes/:passType/:serial"} 1"#))
        #expect(text.contains(#"passmint_http_request_duration_seconds_count{route="unmatched"} 1"#))
        #expect(!text.contains("S-1"))
        #expect(service.durations.count(route: service.durations.unmatched) == 1)
    }
}
