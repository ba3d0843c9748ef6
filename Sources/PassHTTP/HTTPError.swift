/// A failed request: its status and a message for the client, sent as `{"error":{"message":…}}`.
public struct HTTPError: Error, Sendable, CustomStringConvertible, Equatable {
    public var status: Int
    public var message: String
    public var headers: [(name: String, value: String)]

    public init(_ status: Int, _ message: String, headers: [(name: String, value: String)] = []) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    public var description: String { "HTTP \(status): \(message)" }

    public static func == (a: HTTPError, b: HTTPError) -> Bool {
        a.status == b.status && a.message == b.message
    }

    public static func badRequest(_ message: String) -> HTTPError { HTTPError(400, message) }
    public static func unauthorized(_ message: String = "missing or wrong Authorization") -> HTTPError {
        HTTPError(401, message)
    }
    public static func notFound(_ message: String) -> HTTPError { HTTPError(404, message) }

    /// A server-side failure; the message must not contain secrets.
    public static func internalError(_ message: String) -> HTTPError { HTTPError(500, message) }

    var response: Response {
        var response = Response.json(status, "{\"error\":{\"message\":\(JSONText.string(message))}}")
        for header in headers { response.headers.add(header.name, header.value) }
        return response
    }
}
