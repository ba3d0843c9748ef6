import Testing

@testable import PassHTTP

/// What a handler's error is answered with: its own status when it carries one, 500 otherwise.
@Suite("HTTPResponseError")
struct HTTPResponseErrorTests {
    /// A domain error that knows its status, as a store outage would.
    struct Unavailable: HTTPResponseError {
        var status: Int { 503 }
        var response: Response { HTTPError(503, "try again shortly", headers: [("Retry-After", "5")]).response }
    }

    /// An error that names no status.
    struct Unnamed: Error {}

    @Test("HTTPError is answered with its status and message")
    func httpError() {
        let response = Response.answering(HTTPError.badRequest("field `tier` is not in the template"))
        #expect(response.status == 400)
        #expect(String(decoding: response.body.array, as: UTF8.self).contains("field `tier` is not in the template"))
    }

    @Test("any conforming error is answered with its own response")
    func conformer() {
        let response = Response.answering(Unavailable())
        #expect(response.status == 503)
        #expect(response.headers["Retry-After"] == "5")
    }

    @Test("an error that carries no status is the server's fault: 500, and its text is not sent")
    func unnamed() {
        let response = Response.answering(Unnamed())
        #expect(response.status == 500)
        #expect(!String(decoding: response.body.array, as: UTF8.self).contains("Unnamed"))
    }
}
