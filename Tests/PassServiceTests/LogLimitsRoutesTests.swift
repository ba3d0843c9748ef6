import Foundation
import Testing

@testable import PassService

@Suite("POST /v1/log: a budget per client address, a cap on the bytes stored, counted in /metrics")
struct LogLimitsRoutesTests {
    func service(_ limits: UnauthenticatedWriteLimits) throws -> LiveService {
        var configuration = ServiceConfiguration(host: "127.0.0.1", port: 0)
        configuration.unauthenticated = limits
        return try LiveService(configuration: configuration)
    }

    /// One post of one line of `length` bytes: what it counts is `length` + the row overhead.
    func post(_ live: LiveService, _ length: Int, from address: String) throws -> CurlResponse {
        try live.call(
            "POST", "/v1/log", body: jsonBody(["logs": [String(repeating: "x", count: length)]]),
            clientAddress: address)
    }

    @Test("an address past its hourly log bytes gets 429 with Retry-After, nothing written; another goes on")
    func addressBudget() throws {
        let live = try service(UnauthenticatedWriteLimits(logBytesPerAddressPerHour: 1000))
        let line = 300 - UnauthenticatedKind.rowOverheadBytes  // 300 bytes a post
        #expect(try post(live, line, from: "198.51.100.7").status == 200)
        #expect(try post(live, line, from: "198.51.100.7").status == 200)
        #expect(try post(live, line, from: "198.51.100.7").status == 200)
        let limited = try post(live, line, from: "198.51.100.7")
        #expect(limited.status == 429)
        // 100 bytes left, 300 needed, 1000 an hour: 200 bytes take 720 s (less what refilled while the test ran).
        #expect((600...720).contains(Int(limited.header("Retry-After") ?? "") ?? 0), "\(limited.headers)")
        #expect(try live.store.recentLogs(limit: 10).count == 3)
        #expect(try post(live, line, from: "198.51.100.8").status == 200)
        #expect(try live.store.recentLogs(limit: 10).count == 4)
    }

    @Test("the stored lines stay within the cap in bytes; past it 429 with Retry-After and nothing written")
    func storeCap() throws {
        let cap = 10_000
        let live = try service(UnauthenticatedWriteLimits(maxLogBytes: cap, logBytesPerAddressPerHour: 0))
        var statuses: [Int: Int] = [:]
        for i in 0..<100 {
            let response = try post(live, 200 + i, from: "203.0.113.\(i % 7)")
            statuses[response.status, default: 0] += 1
            if response.status == 429 { #expect(response.header("Retry-After") != nil) }
        }
        let lines = try live.store.recentLogs(limit: 1000)
        let bytes = lines.reduce(0) { $0 + $1.utf8.count + UnauthenticatedKind.rowOverheadBytes }
        #expect(bytes <= cap && bytes > cap - 400, "\(bytes) bytes stored")
        #expect(try live.store.unauthenticatedUsage()[.log] == UnauthenticatedUsage(bytes: bytes, rows: lines.count))
        #expect(statuses[200] == lines.count && statuses[429] == 100 - lines.count, "\(statuses)")

        let metrics = try live.call("GET", "/metrics").text
        #expect(metrics.contains(#"passmint_unauthenticated_writes_total{kind="log",result="stored"} \#(lines.count)"#))
        #expect(
            metrics.contains(
                #"passmint_unauthenticated_writes_total{kind="log",result="store_cap"} \#(100 - lines.count)"#))
        #expect(metrics.contains(#"passmint_unauthenticated_stored_bytes{kind="log"} \#(bytes)"#))
        #expect(metrics.contains(#"passmint_unauthenticated_cap_bytes{kind="log"} \#(cap)"#))
    }
}
