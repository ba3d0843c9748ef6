import Foundation
import Testing
@testable import PassHTTP
@testable import PassService

/// What only the real server shows: libmicrohttpd's C strings, framing and limits, over a live socket.
@Suite("HTTP request hygiene over a live socket")
struct HTTPHygieneTests {
    @Test("%00 after a serial is 400, not the real pass; a registration for S1%00 registers nothing")
    func percentNul() throws {
        let live = try LiveService()
        let pass = try live.addPass("S1")
        let download = try live.request("GET", "/v1/passes/\(passType)/S1%00", headers: applePass(pass), pathAsIs: true)
        #expect(download.status == 400)
        #expect((download.json?["error"] as? [String: Any])?["message"] != nil)
        #expect(
            try live.request("GET", "/v1/passes/\(passType)/S1%00junk", headers: applePass(pass), pathAsIs: true)
                .status == 400)
        let register = try live.request(
            "POST", "/v1/devices/d1/registrations/\(passType)/S1%00", headers: applePass(pass),
            body: jsonBody(["pushToken": "abcd"]), pathAsIs: true)
        #expect(register.status == 400)
        #expect(try live.store.registrationsCount() == 0)
        // The plain path still works: the refusal is about the NUL, nothing else.
        #expect(try live.request("GET", "/v1/passes/\(passType)/S1", headers: applePass(pass)).status == 200)
        #expect(
            try live.request("GET", "/v1/passes/\(passType)/S%31", headers: applePass(pass), pathAsIs: true)
                .status == 200)
    }

    @Test(
        "a raw NUL in the request target is 400, even when followed by a fake version",
        arguments: ["junk", "", " HTTP/1.1"])
    func rawNul(tail: String) throws {
        let live = try LiveService()
        let pass = try live.addPass("S1")
        let head =
            "GET /v1/passes/\(passType)/S1\u{0}\(tail) HTTP/1.1\r\nHost: x\r\n"
            + "Authorization: ApplePass \(pass.authenticationToken)\r\nConnection: close\r\n\r\n"
        let exchange = try live.raw(Array(head.utf8))
        #expect(exchange.status == 400, "\(exchange.text.prefix(200))")
        #expect(exchange.text.contains(#"{"error":{"message":"#))
        #expect(live.settles())
    }

    @Test("two Content-Length headers are 400 (curl)")
    func duplicateContentLength() throws {
        let live = try LiveService()
        let body = Array(#"{"logs":["a"]}"#.utf8)
        let response = try live.request(
            "POST", "/v1/log", headers: [:], body: body, extraHeaders: ["Content-Length: 14", "Content-Length: 5"])
        #expect(response.status == 400)
        #expect(response.text.contains("Content-Length"))
        #expect(try live.store.recentLogs(limit: 5).isEmpty)
    }

    @Test("Content-Length with Transfer-Encoding is 400 and the connection is closed: nothing is smuggled")
    func contentLengthWithTransferEncoding() throws {
        let live = try LiveService()
        let smuggled = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"
        let chunk = #"{"logs":["a"]}"#
        let head =
            "POST /v1/log HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n"
            + String(chunk.utf8.count, radix: 16) + "\r\n\(chunk)\r\n0\r\n\r\n" + smuggled
        let exchange = try live.raw(Array(head.utf8))
        #expect(exchange.status == 400, "\(exchange.text.prefix(300))")
        #expect(exchange.closedByServer)
        #expect(exchange.text.components(separatedBy: "HTTP/1.1 ").count == 2, "one response only: \(exchange.text)")
        #expect(try live.store.recentLogs(limit: 5).isEmpty)
        #expect(live.settles())
    }

    @Test("a client that hangs up mid-head or mid-body leaves no request state behind")
    func hangUps() throws {
        // libmicrohttpd notices some hang-ups only when the connection times out: make that quick.
        let live = try LiveService(
            configuration: ServiceConfiguration(host: "127.0.0.1", port: 0, connectionTimeoutSeconds: 1))
        try live.raw(Array("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Half: ".utf8), hangUp: true)
        try live.raw(
            Array("POST /v1/log HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"logs\"".utf8), hangUp: true)
        try live.raw(Array("GET /v1/passes/\(passType)/S1%00 HTTP/1.1\r\nHost: x\r\n\r\n".utf8), hangUp: true)
        #expect(try live.request("GET", "/healthz").status == 200)
        #expect(live.settles(timeout: 20), "request states left: \(live.service.openRequests ?? -1)")
    }

    @Test("control bytes in a header value are 400")
    func controlInHeader() throws {
        let live = try LiveService()
        let exchange = try live.raw(Array("GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\u{1}b\r\n\r\n".utf8))
        #expect(exchange.status == 400)
    }

    @Test("a NUL inside a header value is 400 like the other control bytes, never a value cut short")
    func nulInHeaderValue() throws {
        let live = try LiveService()
        let pass = try live.addPass("S1")
        let cut = try live.raw(
            Array("GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\u{0}GARBAGE\r\nConnection: close\r\n\r\n".utf8))
        #expect(cut.status == 400, "\(cut.text.prefix(200))")
        #expect(cut.text.contains("NUL"), "\(cut.text)")
        // The issue's case: a token followed by a NUL and more; the stored token must not be matched by its prefix.
        let token =
            "GET /v1/passes/\(passType)/S1 HTTP/1.1\r\nHost: x\r\nAuthorization: ApplePass "
            + "\(pass.authenticationToken)\u{0}GARBAGE\r\nConnection: close\r\n\r\n"
        let download = try live.raw(Array(token.utf8))
        #expect(download.status == 400, "\(download.text.prefix(200))")
        #expect(download.text.components(separatedBy: "HTTP/1.1 ").count == 2, "one response: \(download.text)")
        // A NUL in the last field, right before the blank line, and a value that is only a NUL.
        for head in ["X-A: b\u{0}c", "X-A: \u{0}", "X-A: b\u{0}\u{0}\u{0}"] {
            let exchange = try live.raw(Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\(head)\r\n\r\n".utf8))
            #expect(exchange.status == 400, "\(head.debugDescription): \(exchange.text.prefix(200))")
        }
        // The same requests without the NUL are served.
        #expect(
            try live.raw(Array("GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\r\nConnection: close\r\n\r\n".utf8)).status
                == 200)
        #expect(live.settles())
    }

    @Test(
        "a malformed Content-Length gets exactly one 400 response (one status line, one header block, JSON body)",
        arguments: ["14, 14", "+14", "0x0e", "18446744073709551630", "1 4", "-1"])
    func malformedContentLength(value: String) throws {
        let live = try LiveService()
        let body = #"{"logs":["a"]}"#
        let exchange = try live.raw(
            Array("POST /v1/log HTTP/1.1\r\nHost: x\r\nContent-Length: \(value)\r\n\r\n\(body)".utf8))
        #expect(exchange.status == 400, "\(exchange.text.prefix(300))")
        #expect(exchange.text.components(separatedBy: "HTTP/1.1 ").count == 2, "one status line: \(exchange.text)")
        #expect(exchange.text.components(separatedBy: "\r\n\r\n").count == 2, "one header block: \(exchange.text)")
        #expect(exchange.text.contains(#"{"error":{"message":"#), "\(exchange.text)")
        #expect(exchange.closedByServer)
        #expect(try live.store.recentLogs(limit: 5).isEmpty)
        #expect(live.settles())
    }

    @Test("HTTP/1.1 without Host, or with two Host fields, is 400; HTTP/1.0 without Host is served")
    func hostHeader() throws {
        let live = try LiveService()
        let none = try live.raw(Array("GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n".utf8))
        #expect(none.status == 400, "\(none.text.prefix(200))")
        #expect(none.text.contains("Host"))
        let two = try live.raw(Array("GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n".utf8))
        #expect(two.status == 400, "\(two.text.prefix(200))")
        #expect(two.text.contains("Host"))
        #expect(try live.raw(Array("GET /healthz HTTP/1.0\r\n\r\n".utf8)).status == 200)
        #expect(try live.raw(Array("GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n".utf8)).status == 200)
        #expect(live.settles())
    }

    @Test("limits: header count and bytes 431, URL 414, each a JSON error naming its option; under them 200")
    func limits() throws {
        let live = try LiveService()
        let many = (0..<100).map { "X-\($0): 1" }
        let tooMany = try live.request("GET", "/healthz", extraHeaders: many)
        #expect(tooMany.status == 431)
        #expect(tooMany.text.contains("header-count limit"))
        let big = try live.request("GET", "/healthz", headers: ["X-Big": String(repeating: "h", count: 20 * 1024)])
        #expect(big.status == 431)
        #expect(big.text.contains("header-size limit"))
        let long = try live.request("GET", "/healthz?x=" + String(repeating: "u", count: 5000))
        #expect(long.status == 414)
        #expect(long.text.contains("request-target limit"))
        // Near the limits a request is served: 15 KB of headers grow libmicrohttpd's read buffer.
        #expect(
            try live.request("GET", "/healthz", headers: ["X-Big": String(repeating: "h", count: 15 * 1024)])
                .status == 200)
        #expect(try live.request("GET", "/healthz?x=" + String(repeating: "u", count: 4000)).status == 200)
        #expect(try live.request("GET", "/healthz", extraHeaders: (0..<50).map { "X-\($0): 1" }).status == 200)
        // Far past them libmicrohttpd refuses on its own, still a 4xx.
        let huge = try live.raw(
            Array(
                ("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "h", count: 200 * 1024) + "\r\n\r\n")
                    .utf8))
        #expect((400..<500).contains(huge.status ?? 0), "\(huge.text.prefix(200))")
        #expect(live.settles(), "request states left: \(live.service.openRequests ?? -1)")
    }

    @Test("limits are configurable")
    func configurableLimits() throws {
        let live = try LiveService(
            configuration: ServiceConfiguration(
                host: "127.0.0.1", port: 0,
                limits: RequestLimits(maxURLBytes: 64, maxHeaderCount: 8, maxHeaderBytes: 512, maxBodyBytes: 100)))
        #expect(try live.request("GET", "/healthz?x=" + String(repeating: "u", count: 60)).status == 414)
        #expect(try live.request("GET", "/healthz", extraHeaders: (0..<8).map { "X-\($0): 1" }).status == 431)
        #expect(
            try live.request("POST", "/v1/log", body: jsonBody(["logs": [String(repeating: "b", count: 200)]]))
                .status == 413)
        #expect(try live.request("POST", "/v1/log", body: jsonBody(["logs": ["b"]])).status == 200)
    }
}
