import Foundation
import Testing

@testable import PassHTTP
@testable import PassService

/// The admin check made on a request's head, before libmicrohttpd reads (or invites, with `100 Continue`) a body.
@Suite("HTTP: admin requests are authenticated on their head")
struct HTTPHeadGuardTests {
    private static let fiftyMegabytes = 50 * 1024 * 1024

    private func bulkHead(_ path: String = "/admin/v1/updates", token: String?, length: Int, expect: Bool) -> String {
        var head = "POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\nContent-Length: \(length)\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        if expect { head += "Expect: 100-continue\r\n" }
        return head + "\r\n"
    }

    @Test("no token, a wrong one or a blank one: 401 on the head, no 100 Continue, connection closed")
    func refusedOnHead() throws {
        let live = try LiveService()
        for token in [nil, "wrong-token-0123456789abcdef01234567", "", " "] as [String?] {
            let exchange = try live.raw(
                Array(bulkHead(token: token, length: Self.fiftyMegabytes, expect: true).utf8), timeout: 15)
            #expect(exchange.status == 401, "\(token ?? "none"): \(exchange.text.prefix(200))")
            #expect(!exchange.text.contains("100 Continue"), "\(exchange.text.prefix(200))")
            #expect(exchange.closedByServer, "the server waited for a body it must not read")
            #expect(exchange.text.contains("WWW-Authenticate: Bearer"))
        }
        // Without Expect the client sends body bytes at once; they are not read, the answer is the same.
        let eager =
            bulkHead(token: nil, length: Self.fiftyMegabytes, expect: false)
            + String(repeating: "P1,Gold\n", count: 1024)
        let exchange = try live.raw(Array(eager.utf8), timeout: 15)
        #expect(exchange.status == 401, "\(exchange.text.prefix(200))")
        #expect(exchange.closedByServer)
        #expect(live.settles())
    }

    @Test("the path is the normalized one: repeated slashes and escapes do not get around the head check")
    func normalizedAdminPaths() throws {
        let live = try LiveService()
        for path in ["//admin/v1/updates", "/admin//v1/updates", "/admin/v1//updates", "/%61dmin/v1/updates"] {
            let exchange = try live.raw(
                Array(bulkHead(path, token: nil, length: Self.fiftyMegabytes, expect: true).utf8), timeout: 15)
            #expect(exchange.status == 401, "\(path): \(exchange.text.prefix(200))")
            #expect(!exchange.text.contains("100 Continue"))
        }
        #expect(live.settles())
    }

    @Test("with the token the body is invited (100 Continue) and the bulk limit applies; without it the small one")
    func authenticatedGetsTheBulkLimit() throws {
        let live = try LiveService(
            configuration: ServiceConfiguration(
                host: "127.0.0.1", port: 0, limits: RequestLimits(maxBodyBytes: 100, maxUpdateBodyBytes: 10_000)))
        let rows = Array(("serialNumber,tier\n" + String(repeating: "P1,Gold\n", count: 500)).utf8)
        let admin = ["Content-Type": "text/csv", "Authorization": "Bearer \(LiveService.adminToken)"]
        // Past the general limit, inside the bulk one, with the token: the handler answers (no job runner: 501).
        let continued = try live.request("POST", "/admin/v1/updates", headers: admin, body: rows, expectContinue: true)
        #expect(continued.status == 501)
        // Past the bulk limit with the token: 413 naming the bulk limit.
        let tooLarge = try live.raw(Array(bulkHead(token: LiveService.adminToken, length: 20_000, expect: true).utf8))
        #expect(tooLarge.status == 413, "\(tooLarge.text.prefix(200))")
        #expect(tooLarge.text.contains("10000 bytes"))
        // Without the token the same head is 401, whatever its length.
        #expect(try live.raw(Array(bulkHead(token: nil, length: 5_000, expect: true).utf8)).status == 401)
        // Any admin route is checked on its head, with or without a body.
        let stats = try live.raw(Array("GET /admin/v1/stats HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        #expect(stats.status == 401)
        #expect(try live.request("GET", "/admin/v1/stats", headers: admin).status == 200)
        #expect(live.settles())
    }

    @Test("with the admin API disabled, admin heads get 403 and no body is read")
    func disabledAdminAPI() throws {
        let live = try LiveService(environment: [:])
        let exchange = try live.raw(
            Array(
                bulkHead(token: "anything-0123456789abcdef0123456789", length: Self.fiftyMegabytes, expect: true).utf8),
            timeout: 15)
        #expect(exchange.status == 403, "\(exchange.text.prefix(200))")
        #expect(!exchange.text.contains("100 Continue"))
        #expect(exchange.closedByServer)
    }
}
