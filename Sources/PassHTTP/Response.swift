import PassModel
import Foundation

/// Immutable bytes in their own allocation, shared by the render cache and in-flight responses: the HTTP server
/// hands the address to libmicrohttpd and keeps the object alive until the response is freed (no copy).
package final class SharedBytes: @unchecked Sendable {  // immutable after init; the memory is freed only in deinit
    let storage: UnsafeMutableRawBufferPointer

    package init(_ bytes: [UInt8]) {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        bytes.withUnsafeBytes { storage.copyMemory(from: $0) }
        self.storage = storage
        count = bytes.count
    }

    deinit { storage.deallocate() }

    package let count: Int

    /// A copy of the bytes.
    package var bytes: [UInt8] { Array(UnsafeRawBufferPointer(rebasing: storage[0..<count])) }
}

/// One HTTP response produced by a handler.
package struct Response: Sendable {
    package enum Body: Sendable {
        case bytes([UInt8])
        case shared(SharedBytes)

        package var count: Int {
            switch self {
            case .bytes(let bytes): bytes.count
            case .shared(let shared): shared.count
            }
        }

        /// The body as an array (used by tests and in-process callers).
        package var array: [UInt8] {
            switch self {
            case .bytes(let bytes): bytes
            case .shared(let shared): shared.bytes
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
