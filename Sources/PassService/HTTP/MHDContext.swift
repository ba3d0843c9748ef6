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
    /// Whether connections are TLS (libmicrohttpd's GnuTLS session owns what goes on the socket).
    let tls: Bool
    /// Request states alive now: created by the URI log callback, released by the request-completed callback.
    /// Tests read it to prove that no request's state leaks, whatever way the request ended.
    let openRequests = Atomic<Int>(0)

    init(
        limits: RequestLimits, headGuard: HeadGuard, connections: ConnectionGuard, workers: BlockingWorkers?,
        tls: Bool, respond: @escaping @Sendable (Request) -> Response,
        refused: @escaping @Sendable (HTTPMethod, Response, Duration) -> Void
    ) {
        self.limits = limits
        self.headGuard = headGuard
        self.connections = connections
        self.workers = workers
        self.tls = tls
        self.respond = respond
        self.refused = refused
    }
}

extension MHDContext {
    /// Answers the request whose head libmicrohttpd has just refused for its `Content-Length` (called from its
    /// error log, on the network thread that parses the head, before libmicrohttpd queues its own answer): that
    /// request's connection is the one on this thread whose head is complete (libmicrohttpd reports its size) but
    /// has not reached the access handler. PassMint's JSON 400 goes out first; the sending side is then closed,
    /// so libmicrohttpd's doubled answer fails to send and it closes the connection. Over TLS nothing can be
    /// written beside libmicrohttpd's GnuTLS session: the connection is closed without an answer instead.
    func misframed() {
        let thread = UInt(pthread_self())
        let candidates = connections.pendingHeads(on: thread).filter {
            pm_mhd_request_header_size(OpaquePointer(bitPattern: $0.connection)) != 0
        }
        guard candidates.count == 1, let owner = candidates.first,
            let connection = OpaquePointer(bitPattern: owner.connection)
        else { return }
        owner.headPending.store(false, ordering: .relaxed)
        guard !tls else {
            shutdown(owner.socket, Int32(SHUT_RDWR))
            return
        }
        var refusal = HTTPError.badRequest("Content-Length must be a decimal number of bytes")
        do {
            _ = try RequestScreen.headers(mhdHeaderFields(connection).fields, limits: limits, bodyLimit: .max)
        } catch {
            refusal = error
        }
        let response = refusal.response
        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        head += "Date: \(HTTPDate.format(Int64(Date().timeIntervalSince1970)))\r\nConnection: close\r\n"
        for field in response.headers.fields { head += "\(field.name): \(field.value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\n\r\n"
        let bytes = Array(head.utf8) + response.body.array
        refused(HTTPMethod("-"), response, .zero)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                send(owner.socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { break }
            sent += count
        }
        shutdown(owner.socket, Int32(SHUT_WR))
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
