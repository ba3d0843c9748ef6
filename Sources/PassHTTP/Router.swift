/// Matches a method and path against the route table. Built once; validated so no two routes shadow each other.
package struct Router: Sendable {
    package enum Match {
        case found(index: Int, parameters: PathParameters)
        /// The path matches a route but a parameter is outside its `ParameterGrammar` (400).
        case badSegment(index: Int, message: String)
        /// The path cannot be decoded: a bad escape, a control byte such as `%00`, bytes that are not UTF-8 (400).
        case malformedPath(message: String)
        case methodNotAllowed(allowed: [HTTPMethod])
        case notFound
    }

    package let routes: [Route]

    /// - Throws: `HTTPServerError.routeConflict` when two routes with one method can match the same path, or
    ///   `HTTPServerError.invalidRoutePattern` for a malformed pattern.
    package init(routes: [Route]) throws(HTTPServerError) {
        for (i, route) in routes.enumerated() {
            guard route.pattern.hasPrefix("/") else {
                throw .invalidRoutePattern(route.pattern, .notAbsolute)
            }
            if Set(route.parameterNames).count != route.parameterNames.count {
                throw .invalidRoutePattern(route.pattern, .repeatedParameter)
            }
            for other in routes[..<i] where other.method == route.method && other.overlaps(route) {
                throw .routeConflict(other.label, route.label)
            }
        }
        self.routes = routes
    }

    /// Matches a raw request path (percent-encoding intact, as the client sent it) in its `RequestPath` form:
    /// repeated slashes are one, each segment decoded on its own, literals compared with the decoded text,
    /// parameters checked against their `ParameterGrammar` before any handler runs.
    package func match(method: HTTPMethod, path: String) -> Match {
        guard path.utf8.first == UInt8(ascii: "/") else { return .notFound }
        let parts: [String]
        do {
            parts = try RequestPath(path).segments
        } catch {
            return .malformedPath(message: "the request path contains \(error.message)")
        }
        let lookup = method == .head ? HTTPMethod.get : method
        var allowed: [HTTPMethod] = []
        for (index, route) in routes.enumerated() where Self.structurallyMatches(route, parts) {
            guard route.method == lookup else {
                allowed.append(route.method)
                continue
            }
            var values: [String] = []
            values.reserveCapacity(route.parameterNames.count)
            for (segment, part) in zip(route.segments, parts) {
                guard case .parameter(let name) = segment else { continue }
                let grammar = ParameterGrammar.named(name)
                guard grammar.accepts(part) else {
                    return .badSegment(index: index, message: "path parameter \(name) \(grammar.rule)")
                }
                values.append(part)
            }
            return .found(index: index, parameters: PathParameters(names: route.parameterNames, values: values))
        }
        if allowed.isEmpty { return .notFound }
        if allowed.contains(.get) { allowed.append(.head) }
        return .methodNotAllowed(allowed: allowed)
    }

    private static func structurallyMatches(_ route: Route, _ parts: [String]) -> Bool {
        guard route.segments.count == parts.count else { return false }
        for (segment, part) in zip(route.segments, parts) {
            if case .literal(let literal) = segment, !literal.utf8.elementsEqual(part.utf8) { return false }
        }
        return true
    }
}
