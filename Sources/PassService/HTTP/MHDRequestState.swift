import Foundation
import Synchronization

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
