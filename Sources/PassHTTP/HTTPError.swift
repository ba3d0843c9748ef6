/// An error that knows how the client is answered, as hummingbird's `HTTPResponseError`: its status and its
/// response. A handler throws what went wrong and the one place that writes responses asks the error; an error
/// that does not conform is answered 500 (`Response.answering(_:)`), so a fault nobody named is never a 4xx.
package protocol HTTPResponseError: Error {
    /// The HTTP status code the client gets.
    var status: Int { get }
    /// The whole response for this error.
    var response: Response { get }
}

/// A failed request: its status and a message for the client, sent as `{"error":{"message":…}}`.
package struct HTTPError: HTTPResponseError, Sendable, CustomStringConvertible, Equatable {
    package var status: Int
    package var message: String
    package var headers: [(name: String, value: String)]

    package init(_ status: Int, _ message: String, headers: [(name: String, value: String)] = []) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    package var description: String { "HTTP \(status): \(message)" }

    package static func == (a: HTTPError, b: HTTPError) -> Bool {
        a.status == b.status && a.message == b.message
    }

    package static func badRequest(_ message: String) -> HTTPError { HTTPError(400, message) }
    package static func unauthorized(_ message: String = "missing or wrong Authorization") -> HTTPError {
        HTTPError(401, message)
    }
    package static func notFound(_ message: String) -> HTTPError { HTTPError(404, message) }

    /// A server-side failure; the message must not contain secrets.
    package static func internalError(_ message: String) -> HTTPError { HTTPError(500, message) }

    package var response: Response {
        var response = Response.json(status, "{\"error\":{\"message\":\(JSONText.string(message))}}")
        for header in headers { response.headers.add(header.name, header.value) }
        return response
    }
}

extension Response {
    /// The answer to an error a handler threw: its own when it is an `HTTPResponseError`, else 500 (the caller logs
    /// it; the client learns nothing of it).
    package static func answering(_ error: any Error) -> Response {
        (error as? any HTTPResponseError)?.response
            ?? HTTPError.internalError("internal error; see the server log").response
    }
}
