internal import CMicroHTTPD
import Foundation
import Synchronization

/// What the C callbacks receive as `cls`: the responder, the limits and head guard, the connection guard, and the
/// workers that run requests which change state (nil: every request is answered on the network thread).
final class MHDContext: Sendable {
    let limits: RequestLimits
    let headGuard: HeadGuard
    let connections: ConnectionGuard
    let respond: @Sendable (Request) -> Response
    /// Told of each request answered by the adapter itself (refused head, body too large), so that the access
    /// log and the metrics see every answered request, not only those that reached `respond`.
    let refused: @Sendable (HTTPMethod, Response, Duration) -> Void
    let workers: BlockingWorkers?
    /// Request states alive now: created by the URI log callback, released by the request-completed callback.
    /// Tests read it to prove that no request's state leaks, whatever way the request ended.
    let openRequests = Atomic<Int>(0)

    init(
        limits: RequestLimits, headGuard: HeadGuard, connections: ConnectionGuard, workers: BlockingWorkers?,
        respond: @escaping @Sendable (Request) -> Response,
        refused: @escaping @Sendable (HTTPMethod, Response, Duration) -> Void
    ) {
        self.limits = limits
        self.headGuard = headGuard
        self.connections = connections
        self.workers = workers
        self.respond = respond
        self.refused = refused
    }
}

extension MHDContext {
    /// Answers the request whose head libmicrohttpd has just refused for its `Content-Length` (called from its
    /// error log, on the network thread that parses the head, before libmicrohttpd queues its own answer): that
    /// request's connection is the one on this thread whose head is complete (libmicrohttpd reports its size) but
    /// has not reached the access handler. PassMint's JSON 400 goes out first; the sending side is then closed,
    /// so libmicrohttpd's doubled answer fails to send and it closes the connection.
    func misframed() {
        let thread = UInt(pthread_self())
        let candidates = connections.pendingHeads(on: thread).filter {
            pm_mhd_request_header_size(OpaquePointer(bitPattern: $0.connection)) != 0
        }
        guard candidates.count == 1, let owner = candidates.first,
            let connection = OpaquePointer(bitPattern: owner.connection)
        else { return }
        owner.headPending.store(false, ordering: .relaxed)
        var refusal = HTTPError.badRequest("Content-Length must be a decimal number of bytes")
        do {
            _ = try RequestScreen.headers(mhdHeaderFields(connection).0, limits: limits, bodyLimit: .max)
        } catch {
            refusal = error
        }
        let response = refusal.response
        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        head += "Date: \(HTTPDate.format(Int64(Date().timeIntervalSince1970)))\r\nConnection: close\r\n"
        for field in response.headers.fields { head += "\(field.name): \(field.value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\n\r\n"
        let bytes = Array(head.utf8) + response.body.array
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                send(owner.socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { break }
            sent += count
        }
        shutdown(owner.socket, Int32(SHUT_WR))
        refused(HTTPMethod("-"), response, .zero)
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 413: "Content Too Large"
        case 431: "Request Header Fields Too Large"
        case 501: "Not Implemented"
        default: "Error"
        }
    }
}

/// One request from its request line to its completion, owned by its connection's `*con_cls` (one MHD thread at
/// a time): created by the URI log callback, released by the request-completed callback. One object whose
/// `phase` says where the request is, rather than several meanings read out of one `void *`.
final class MHDRequestState {
    enum Phase {
        /// Only the request line was seen; the access handler's first call screens the head.
        case started
        /// The head passed `RequestScreen`; body bytes (if any) arrive.
        case receiving(method: HTTPMethod, path: String, query: [(name: String, value: String)], headers: HTTPHeaders)
        /// Answered during the head or the body (an error); later calls only drain what the client still sends.
        case rejected
        /// Handed to a worker; holds the response once the worker resumed the connection.
        case offloaded(OffloadedResponse)
    }

    /// The request target exactly as the client sent it, path and query, percent-encoding intact.
    let target: [UInt8]
    /// Where libmicrohttpd keeps the target in its read buffer. The HTTP version string must start right after
    /// it (`target SP version`); if it starts later, the target held a raw NUL that cut the C string short.
    let targetAddress: UInt
    /// When the request line arrived: the duration of a request the adapter answers itself.
    let started = ContinuousClock.now
    var phase = Phase.started
    var body: [UInt8] = []
    /// The most body bytes this request may send (set when its head is screened; see `RequestLimits.bodyLimit`).
    var bodyLimit = 0
    var tooLarge = false
    /// The peer's IP address (set when the head is screened).
    var clientAddress = ""
    /// The connection the request arrived on (nil when libmicrohttpd did not report one).
    var connection: MHDConnectionState?
    /// Monotonic nanoseconds when the head was screened: the start of the body's deadline.
    var bodyStarted: UInt64 = 0
    /// Body bytes received so far (kept or dropped).
    var received = 0

    init(target: UnsafePointer<CChar>) {
        let length = strlen(target)
        self.target = target.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
        targetAddress = UInt(bitPattern: target)
    }

    /// True when the HTTP version string libmicrohttpd parsed starts right after the target's terminator, i.e.
    /// the target the URI log callback saw is the whole target, not a prefix cut at a raw NUL.
    func isWholeTarget(version: UnsafePointer<CChar>?) -> Bool {
        guard let version else { return false }
        return UInt(bitPattern: version) == targetAddress + UInt(target.count) + 1
    }
}

/// The response a worker made for a suspended connection.
final class OffloadedResponse: Sendable {
    let response = Mutex<Response?>(nil)
}
