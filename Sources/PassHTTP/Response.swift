import PassArchive
import PassModel
import Foundation

/// One HTTP response produced by a handler.
package struct Response: Sendable {
    package enum Body: Sendable {
        case bytes([UInt8])
        /// Bytes in buffers of their own (`ArchiveParts`: a pass whose template assets stay in the asset cache),
        /// shared by the render cache and in-flight responses: sent straight from those buffers, never joined.
        case parts(ArchiveParts)

        package var count: Int {
            switch self {
            case .bytes(let bytes): bytes.count
            case .parts(let parts): parts.count
            }
        }

        /// The body as an array (used by tests and in-process callers).
        package var array: [UInt8] {
            switch self {
            case .bytes(let bytes): bytes
            case .parts(let parts): parts.bytes
            }
        }
    }

    package var status: Int
    package var headers: HTTPHeaders
    package var body: Body

    package init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// An empty response with `status`.
    package static func empty(_ status: Int, headers: HTTPHeaders = HTTPHeaders()) -> Response {
        Response(status: status, headers: headers)
    }

    /// A JSON response from already-serialized JSON text.
    package static func json(_ status: Int, _ text: String) -> Response {
        Response(status: status, headers: ["Content-Type": "application/json"], body: .bytes(Array(text.utf8)))
    }

    /// A JSON response from an `Encodable` value, keys sorted.
    package static func json(_ status: Int, encoding value: some Encodable) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Response(status: status, headers: ["Content-Type": "application/json"], body: .bytes(Array(data)))
    }

    package static func text(_ status: Int, _ text: String, contentType: String = "text/plain; charset=utf-8")
        -> Response
    {
        Response(status: status, headers: ["Content-Type": contentType], body: .bytes(Array(text.utf8)))
    }
}

/// JSON text for the hot paths (no encoder allocation), with PassModel's one string escaper.
package enum JSONText {
    /// `value` as a JSON string literal, quotes included.
    package static func string(_ value: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(value.utf8.count + 2)
        JSONWriter.writeString(value, into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
