import Testing

@testable import PassService

/// `RequestScreen` on values: what the live server runs on every head before routing.
@Suite("Request screen: target, headers, framing, limits")
struct RequestScreenTests {
    let limits = RequestLimits()

    private func fields(_ pairs: [(String, String)]) -> [RequestScreen.RawField] {
        pairs.map { RequestScreen.RawField(name: Array($0.0.utf8), value: Array($0.1.utf8)) }
    }

    /// The status of the HTTPError `body` throws; nil when it throws nothing.
    private func status(_ body: () throws -> Void) -> Int? {
        do {
            try body()
            return nil
        } catch {
            return (error as? HTTPError)?.status ?? -1
        }
    }

    @Test("the target keeps its path encoded and decodes the query")
    func target() throws {
        let (path, query) = try RequestScreen.target(
            Array("/v1/passes/pass.a/S%31?x=a%20b&y&z=1+2".utf8), limits: limits)
        #expect(path == "/v1/passes/pass.a/S%31")
        #expect(query.map(\.name) == ["x", "y", "z"])
        #expect(query.map(\.value) == ["a b", "", "1 2"])
    }

    @Test(
        "a target with a control byte, raw or encoded in the query, or a bad escape is 400",
        arguments: [
            "/v1/passes/pass.a/S1\u{01}", "/v1/passes/pass.a/S1\u{7F}", "/healthz?a=%00", "/healthz?a=%0a",
            "/healthz?a=%zz",
            "/healthz?a=%C3",
        ])
    func badTargets(target: String) {
        #expect(status { _ = try RequestScreen.target(Array(target.utf8), limits: limits) } == 400, "\(target)")
    }

    @Test("a target over maxURLBytes is 414 and names the option; one at the limit passes")
    func urlLimit() throws {
        let small = RequestLimits(maxURLBytes: 32)
        let atLimit = "/" + String(repeating: "a", count: 31)
        _ = try RequestScreen.target(Array(atLimit.utf8), limits: small)
        do {
            _ = try RequestScreen.target(Array((atLimit + "b").utf8), limits: small)
            Issue.record("expected 414")
        } catch {
            #expect(error.status == 414)
            #expect(error.message.contains("request-target limit"))
        }
    }

    @Test("headers pass through exactly as sent")
    func headersPass() throws {
        let headers = try RequestScreen.headers(
            fields([("Authorization", "ApplePass abc"), ("Content-Length", "12"), ("X-Tab", "a\tb")]), limits: limits)
        #expect(headers["authorization"] == "ApplePass abc")
        #expect(headers["X-Tab"] == "a\tb")
        _ = try RequestScreen.headers(fields([("Transfer-Encoding", "chunked")]), limits: limits)
    }

    @Test(
        "request-smuggling shapes and malformed framing are refused",
        arguments: [
            ([("Content-Length", "12"), ("Content-Length", "5")], 400),
            ([("Content-Length", "5"), ("content-length", "5")], 400),
            ([("Content-Length", "5"), ("Transfer-Encoding", "chunked")], 400),
            ([("Transfer-Encoding", "chunked"), ("Transfer-Encoding", "chunked")], 400),
            ([("Content-Length", "5, 5")], 400),
            ([("Content-Length", "-1")], 400),
            ([("Content-Length", "+5")], 400),
            ([("Content-Length", "")], 400),
            ([("Content-Length", "99999999999999999999999")], 400),
            ([("Transfer-Encoding", "gzip, chunked")], 501),
            ([("Content-Length", "70000")], 413),
        ])
    func framing(pairs: [(String, String)], expected: Int) {
        #expect(status { _ = try RequestScreen.headers(fields(pairs), limits: limits) } == expected, "\(pairs)")
    }

    @Test("Host: none is 400 only when required (HTTP/1.1); two are 400 always")
    func host() throws {
        #expect(
            status { _ = try RequestScreen.headers(fields([("A", "1")]), limits: limits, requiresHost: true) } == 400)
        _ = try RequestScreen.headers(fields([("A", "1")]), limits: limits, requiresHost: false)
        _ = try RequestScreen.headers(fields([("Host", "x")]), limits: limits, requiresHost: true)
        #expect(
            status { _ = try RequestScreen.headers(fields([("Host", "a"), ("host", "b")]), limits: limits) } == 400)
    }

    @Test("the declared length is read once the framing is checked; chunked and absent declare none")
    func declaredLength() throws {
        let declared = try RequestScreen.headers(
            fields([("Content-Length", " 70000 ")]), limits: limits, bodyLimit: .max)
        #expect(RequestScreen.declaredLength(declared) == 70000)
        let chunked = try RequestScreen.headers(fields([("Transfer-Encoding", "chunked")]), limits: limits)
        #expect(RequestScreen.declaredLength(chunked) == nil)
        #expect(RequestScreen.declaredLength(HTTPHeaders()) == nil)
    }

    @Test("a control byte or a NUL inside a header, or a name that is not a token, is 400; the value is not echoed")
    func headerBytes() {
        let cases: [RequestScreen.RawField] = [
            .init(name: Array("Authorization".utf8), value: Array("ApplePass sec\u{0}ret".utf8)),
            .init(name: Array("X-A".utf8), value: Array("a\u{1}b".utf8)),
            .init(name: Array("X-A".utf8), value: [0x61, 0xFF]),
            .init(name: Array("X A".utf8), value: Array("1".utf8)),
            .init(name: [], value: Array("1".utf8)),
        ]
        for field in cases {
            do {
                _ = try RequestScreen.headers([field], limits: limits)
                Issue.record("accepted \(field.name)")
            } catch {
                #expect(error.status == 400)
                #expect(!error.message.contains("sec"))
            }
        }
    }

    @Test("more header fields than maxHeaderCount, or more bytes than maxHeaderBytes, is 431 naming the option")
    func headerLimits() throws {
        let count = RequestLimits(maxHeaderCount: 3)
        _ = try RequestScreen.headers(fields([("A", "1"), ("B", "2"), ("C", "3")]), limits: count)
        do {
            _ = try RequestScreen.headers(fields([("A", "1"), ("B", "2"), ("C", "3"), ("D", "4")]), limits: count)
            Issue.record("expected 431")
        } catch {
            #expect(error.status == 431 && error.message.contains("header-count limit"))
        }
        let bytes = RequestLimits(maxHeaderBytes: 10)
        _ = try RequestScreen.headers(fields([("ABCDE", "12345")]), limits: bytes)
        do {
            _ = try RequestScreen.headers(fields([("ABCDE", "123456")]), limits: bytes)
            Issue.record("expected 431")
        } catch {
            #expect(error.status == 431 && error.message.contains("header-size limit"))
        }
    }
}
