/// An HTTP method. A struct, not an enum, so that any method a client sends can be represented (and answered 405).
package struct HTTPMethod: Hashable, Sendable, CustomStringConvertible {
    package let rawValue: String
    package init(_ rawValue: String) { self.rawValue = rawValue }

    package static let get = HTTPMethod("GET")
    package static let head = HTTPMethod("HEAD")
    package static let post = HTTPMethod("POST")
    package static let put = HTTPMethod("PUT")
    package static let patch = HTTPMethod("PATCH")
    package static let delete = HTTPMethod("DELETE")

    package var description: String { rawValue }
}

/// Header fields in arrival order; lookups ignore ASCII case.
package struct HTTPHeaders: Sendable, ExpressibleByDictionaryLiteral {
    package private(set) var fields: [(name: String, value: String)]

    package init(_ fields: [(name: String, value: String)] = []) { self.fields = fields }
    package init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    package mutating func add(_ name: String, _ value: String) { fields.append((name, value)) }

    /// The first value of `name`, compared case-insensitively.
    package subscript(_ name: String) -> String? {
        for field in fields where asciiCaseInsensitiveEquals(field.name, name) { return field.value }
        return nil
    }
}

package func asciiCaseInsensitiveEquals(_ a: String, _ b: String) -> Bool {
    let a = a.utf8, b = b.utf8
    guard a.count == b.count else { return false }
    for (x, y) in zip(a, b) where x != y {
        let lx = (x >= 65 && x <= 90) ? x | 0x20 : x
        let ly = (y >= 65 && y <= 90) ? y | 0x20 : y
        if lx != ly { return false }
    }
    return true
}

/// The values of a route pattern's `:name` segments: percent-decoded, and each within its `ParameterGrammar`
/// (the router refuses the request otherwise, before the handler runs).
package struct PathParameters: Sendable {
    let names: [String]
    let values: [String]

    package init(names: [String] = [], values: [String] = []) {
        self.names = names
        self.values = values
    }

    /// The value of `:name`; "" when the pattern has no such parameter (a route-table bug, caught by tests).
    package subscript(_ name: String) -> String {
        for (index, candidate) in names.enumerated() where candidate == name { return values[index] }
        return ""
    }
}

/// One HTTP request as handlers see it: plain values, no server pointers.
package struct Request: Sendable {
    package var method: HTTPMethod
    /// The path without the query string, percent-encoding intact, exactly as the client sent it; the router
    /// decodes it segment by segment.
    package var path: String
    package var parameters: PathParameters
    /// Query arguments in arrival order, decoded (a key without `=` has the value "").
    package var query: [(name: String, value: String)]
    package var headers: HTTPHeaders
    package var body: [UInt8]
    /// The peer's IP address as text ("127.0.0.1", "::1"); "" when unknown (a request made in process). Behind a
    /// reverse proxy this is the proxy's address.
    package var clientAddress: String

    package init(
        method: HTTPMethod, path: String, parameters: PathParameters = PathParameters(names: [], values: []),
        query: [(name: String, value: String)] = [], headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
        clientAddress: String = ""
    ) {
        self.method = method
        self.path = path
        self.parameters = parameters
        self.query = query
        self.headers = headers
        self.body = body
        self.clientAddress = clientAddress
    }

    /// The first query argument called `name`.
    package func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }
}
