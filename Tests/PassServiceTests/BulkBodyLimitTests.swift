import Foundation
import Testing
@testable import PassHTTP
@testable import PassService

@Suite("HTTP: the bulk-update route's own body limit")
struct BulkBodyLimitTests {
    @Test("POST /admin/v1/updates takes bodies past the general limit up to its own; other routes do not")
    func ownLimit() throws {
        let live = try LiveService(
            configuration: ServiceConfiguration(
                host: "127.0.0.1", port: 0, limits: RequestLimits(maxBodyBytes: 100, maxUpdateBodyBytes: 10_000)))
        let rows = Array(("serialNumber,tier\n" + String(repeating: "P1,Gold\n", count: 500)).utf8)
        let headers = ["Content-Type": "text/csv", "Authorization": "Bearer \(LiveService.adminToken)"]
        // Past the general limit, inside the route's: it reaches the handler (which runs no jobs here: 501).
        #expect(try live.request("POST", "/admin/v1/updates", headers: headers, body: rows).status == 501)
        #expect(try live.request("POST", "/v1/log", body: rows).status == 413)
        let tooMany = Array(String(repeating: "P1,Gold\n", count: 2000).utf8)
        let refused = try live.request("POST", "/admin/v1/updates", headers: headers, body: tooMany)
        #expect(refused.status == 413)
        #expect(refused.text.contains("10000 bytes"))
    }
}
