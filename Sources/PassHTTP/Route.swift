/// A request handler: plain, synchronous, on values only. What it throws is answered by `Response.answering(_:)`:
/// an `HTTPResponseError` with its own status, anything else with 500.
package typealias Handler = @Sendable (Request) throws -> Response

/// One entry of the route table: method, pattern (`/v1/passes/:passType/:serial`) and handler.
package struct Route: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    package let method: HTTPMethod
    package let pattern: String
    let segments: [Segment]
    let parameterNames: [String]
    package let handler: Handler

    package init(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {
        self.method = method
        self.pattern = pattern
        self.segments = pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            $0.hasPrefix(":") ? .parameter(String($0.dropFirst())) : .literal(String($0))
        }
        self.parameterNames = segments.compactMap {
            if case .parameter(let name) = $0 { name } else { nil }
        }
        self.handler = handler
    }

    /// "METHOD /pattern", the label used in metrics, logs and errors.
    package var label: String { "\(method) \(pattern)" }

    /// Whether some path matches both patterns.
    func overlaps(_ other: Route) -> Bool {
        guard segments.count == other.segments.count else { return false }
        for (a, b) in zip(segments, other.segments) {
            if case .literal(let x) = a, case .literal(let y) = b, x != y { return false }
        }
        return true
    }
}
