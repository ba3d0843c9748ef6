internal import CMicroHTTPD
import Foundation
import PassArchive
import Synchronization

/// A suspended MHD connection, handed to the worker that resumes it.
private struct SuspendedConnection: @unchecked Sendable {  // only used for MHD_resume_connection, which is thread-safe
    let pointer: OpaquePointer
}

/// The MHD URI log callback: the first thing libmicrohttpd reports about a request, with the target not yet
/// decoded. Its return value becomes the request's `*con_cls`: a retained `MHDRequestState`.
let mhdRequestStarted: pm_mhd_uri_log_callback = { cls, uri, connection in
    guard let cls else { return nil }
    let context = Unmanaged<MHDContext>.fromOpaque(cls).takeUnretainedValue()
    context.openRequests.add(1, ordering: .relaxed)
    let state = uri.map(MHDRequestState.init(target:)) ?? MHDRequestState(target: "")
    if let connection, let stored = pm_mhd_socket_context(connection) {
        let owner = Unmanaged<MHDConnectionState>.fromOpaque(stored).takeUnretainedValue()
        owner.thread.store(UInt(pthread_self()), ordering: .relaxed)
        owner.headPending.store(true, ordering: .relaxed)
        owner.idle.store(false, ordering: .relaxed)
        state.connection = owner
    }
    return Unmanaged.passRetained(state).toOpaque()
}

/// Releases the request's `MHDRequestState`; its connection now waits for the next head.
let mhdRequestCompleted: MHD_RequestCompletedCallback = { cls, _, state, _ in
    guard let cls, let state, let current = state.pointee else { return }
    let context = Unmanaged<MHDContext>.fromOpaque(cls).takeUnretainedValue()
    let request = Unmanaged<MHDRequestState>.fromOpaque(current).takeRetainedValue()
    if let connection = request.connection {
        connection.headPending.store(false, ordering: .relaxed)
        context.connections.awaitHead(connection, idle: true)
    }
    context.openRequests.subtract(1, ordering: .relaxed)
    state.pointee = nil
}

/// The accept policy: a new connection from an address that holds its `ConnectionLimits.perAddress` already is
/// closed before anything is read from it.
let mhdAcceptPolicy: MHD_AcceptPolicyCallback = { cls, address, _ in
    guard let cls, let address, let key = ClientAddressKey(address) else { return .YES }
    return Unmanaged<MHDContext>.fromOpaque(cls).takeUnretainedValue().connections.admits(key) ? .YES : .NO
}

/// Connection started and closed: a retained `MHDConnectionState` lives in the connection's socket context
/// between the two (libmicrohttpd reports the close before it closes the socket).
let mhdConnectionNotified: MHD_NotifyConnectionCallback = { cls, connection, socketContext, code in
    guard let cls, let connection, let socketContext else { return }
    let guardian = Unmanaged<MHDContext>.fromOpaque(cls).takeUnretainedValue().connections
    // MHD_CONNECTION_NOTIFY_STARTED (0) and MHD_CONNECTION_NOTIFY_CLOSED (1), which Swift does not import by name.
    switch code.rawValue {
    case 0:
        guard let address = pm_mhd_client_sockaddr(connection), let key = ClientAddressKey(address) else { return }
        let state = MHDConnectionState(
            connection: UInt(bitPattern: connection), socket: pm_mhd_connection_fd(connection), address: key)
        socketContext.pointee = Unmanaged.passRetained(state).toOpaque()
        guardian.opened(state)
    case 1:
        guard let stored = socketContext.pointee else { return }
        guardian.closed(Unmanaged<MHDConnectionState>.fromOpaque(stored).takeRetainedValue())
        socketContext.pointee = nil
    default:
        return
    }
}

/// libmicrohttpd's error log, written to stderr as before. Two of its errors are answered here as well: a
/// malformed or overflowing `Content-Length` makes libmicrohttpd 0.9.75 send its own 400 or 413 with the status
/// line and headers twice (it queues the error while parsing the head, then its state machine builds the head
/// again), so PassMint sends the one JSON 400 first and closes the sending side (see `MHDContext.misframed`).
let mhdLog: MHD_LogCallback = { cls, format, arguments in
    guard let format, let arguments else { return }
    var buffer = [CChar](repeating: 0, count: 512)
    _ = buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, format, arguments) }
    let message = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    if let cls, message.contains("'Content-Length' header") || message.contains("`Content-Length' header") {
        Unmanaged<MHDContext>.fromOpaque(cls).takeUnretainedValue().misframed()
    }
    FileHandle.standardError.write(Data(message.utf8))
}

/// The MHD access handler, driven by the request state's phase. The head is screened, and judged by the service's
/// `HeadGuard`, on the first call; a response is queued on the last call, never the first, unless the head is
/// refused: answering on the first call makes MHD close the connection without reading (or inviting, with
/// `100 Continue`) the body, which is what a refused (possibly smuggling or unauthenticated) request must get.
let mhdAccessHandler: MHD_AccessHandlerCallback = {
    cls, connection, _, method, version, uploadData, uploadSize, state in
    guard let cls, let connection, let uploadSize, let state, let current = state.pointee else { return .NO }
    let context = Unmanaged<MHDContext>.fromOpaque(cls).takeUnretainedValue()
    let request = Unmanaged<MHDRequestState>.fromOpaque(current).takeUnretainedValue()
    switch request.phase {
    case .started:
        request.connection?.headPending.store(false, ordering: .relaxed)
        do throws(HTTPError) {
            request.phase = try mhdScreen(request, connection, method: method, version: version, context)
            if let owner = request.connection {
                if case .receiving(_, _, _, let headers) = request.phase,
                    headers["Content-Length"] != nil || headers["Transfer-Encoding"] != nil
                {
                    request.bodyStarted = ConnectionGuard.now
                    context.connections.awaitBody(owner, started: request.bodyStarted)
                } else {
                    context.connections.answering(owner)
                }
            }
            return .YES
        } catch {
            request.phase = .rejected
            if let owner = request.connection { context.connections.answering(owner) }
            let response = error.response
            let methodName = HTTPMethod(method.map { String(cString: $0) } ?? "GET")
            context.refused(methodName, response, ContinuousClock.now - request.started)
            return mhdQueue(connection, response, closing: true)
        }
    case .rejected:
        uploadSize.pointee = 0
        return .YES
    case .offloaded(let offloaded):
        // Called again after the worker resumed the connection: answer with what it made.
        let response = offloaded.response.withLock { $0.take() }
        return mhdQueue(connection, response ?? HTTPError(500, "the request was not answered").response)
    case .receiving(let method, let path, let query, let headers):
        if uploadSize.pointee > 0 {
            let count = uploadSize.pointee
            request.received += count
            if let owner = request.connection {
                context.connections.bodyProgress(owner, started: request.bodyStarted, received: request.received)
            }
            if request.tooLarge || request.body.count + count > request.bodyLimit {
                request.tooLarge = true
                request.body = []
            } else if let uploadData {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: count) {
                    request.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
                }
            }
            uploadSize.pointee = 0
            return .YES
        }
        if let owner = request.connection { context.connections.answering(owner) }
        if request.tooLarge {
            request.phase = .rejected
            let response = RequestScreen.bodyTooLarge(request.bodyLimit).response
            context.refused(method, response, ContinuousClock.now - request.started)
            return mhdQueue(connection, response)
        }
        let value = Request(
            method: method, path: path, query: query, headers: headers, body: request.body,
            clientAddress: request.clientAddress)
        request.body = []
        if method != .get, method != .head, let workers = context.workers, workers.reserve() {
            let offloaded = OffloadedResponse()
            request.phase = .offloaded(offloaded)
            MHD_suspend_connection(connection)
            let suspended = SuspendedConnection(pointer: connection)
            workers.run {
                let response = context.respond(value)
                offloaded.response.withLock { $0 = response }
                MHD_resume_connection(suspended.pointer)
            }
            return .YES
        }
        return mhdQueue(connection, context.respond(value))
    }
}

/// The head as handlers will see it, or the error that refuses it (see `RequestScreen` and `HeadGuard`).
private func mhdScreen(
    _ request: MHDRequestState, _ connection: OpaquePointer, method: UnsafePointer<CChar>?,
    version: UnsafePointer<CChar>?, _ context: MHDContext
) throws(HTTPError) -> MHDRequestState.Phase {
    guard request.isWholeTarget(version: version) else {
        throw .badRequest("the request target contains a NUL byte")
    }
    request.clientAddress = mhdClientAddress(connection)
    let limits = context.limits
    let (path, query) = try RequestScreen.target(request.target, limits: limits)
    let methodName = HTTPMethod(method.map { String(cString: $0) } ?? "GET")
    let (fields, layout) = mhdHeaderFields(
        connection, layout: method.flatMap { method in version.map { mhdHeadLayout(connection, method, $0) } })
    if let layout, !layout.isWhole {
        throw .badRequest("a header field contains a NUL byte or is folded over two lines; send each on one line")
    }
    let isHTTP11 = version.map { strcmp($0, "HTTP/1.1") == 0 } ?? false
    // Framing first, at any length: the length is judged once the guard has said how much body may come.
    let headers = try RequestScreen.headers(fields, limits: limits, bodyLimit: .max, requiresHost: isHTTP11)
    switch context.headGuard.decide(RequestHead(method: methodName, path: path, headers: headers)) {
    case .refuse(let error):
        throw error
    case .read(let bodyLimit):
        request.bodyLimit = bodyLimit
        if let length = RequestScreen.declaredLength(headers), length > bodyLimit {
            throw RequestScreen.bodyTooLarge(bodyLimit)
        }
    }
    return .receiving(method: methodName, path: path, query: query, headers: headers)
}

/// Where libmicrohttpd keeps this request's head (`MHDHeadLayout`).
private func mhdHeadLayout(_ connection: OpaquePointer, _ method: UnsafePointer<CChar>, _ version: UnsafePointer<CChar>)
    -> MHDHeadLayout
{
    let start = UnsafeRawPointer(version) + strlen(version)
    let end = UnsafeRawPointer(method) + pm_mhd_request_header_size(connection)
    return MHDHeadLayout(start: start, end: max(start, end))
}

/// The peer's IP address as text, "" when libmicrohttpd does not know it.
private func mhdClientAddress(_ connection: OpaquePointer) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    let count = buffer.count
    guard pm_mhd_client_address(connection, &buffer, socklen_t(count)) != 0 else { return "" }
    return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}

/// The request's header fields with their exact lengths; with `layout`, each is also checked against where
/// libmicrohttpd keeps it (`MHDHeadLayout`).
func mhdHeaderFields(_ connection: OpaquePointer, layout: MHDHeadLayout? = nil) -> (
    fields: [RequestScreen.RawField], layout: MHDHeadLayout?
) {
    typealias Collected = (fields: [RequestScreen.RawField], layout: MHDHeadLayout?)
    var collected: Collected = ([], layout)
    withUnsafeMutablePointer(to: &collected) { pointer in
        _ = MHD_get_connection_values_n(
            connection, .HEADER_KIND,
            { cls, _, key, keySize, value, valueSize in
                guard let cls else { return .YES }
                let bytes: (UnsafePointer<CChar>?, Int) -> [UInt8] = { pointer, count in
                    guard let pointer, count > 0 else { return [] }
                    return pointer.withMemoryRebound(to: UInt8.self, capacity: count) {
                        Array(UnsafeBufferPointer(start: $0, count: count))
                    }
                }
                let out = cls.assumingMemoryBound(to: Collected.self)
                out.pointee.fields.append(
                    RequestScreen.RawField(name: bytes(key, keySize), value: bytes(value, valueSize)))
                if let key, let value {
                    out.pointee.layout?.add(
                        MHDHeadLayout.Field(
                            name: UnsafeRawPointer(key), nameCount: keySize, value: UnsafeRawPointer(value),
                            valueCount: valueSize))
                }
                return .YES
            }, pointer)
    }
    return collected
}

/// Queues `response`; `closing` adds `Connection: close`, so nothing the client sent after a refused head is
/// read as a next request.
private func mhdQueue(_ connection: OpaquePointer, _ response: Response, closing: Bool = false) -> MHD_Result {
    let created: OpaquePointer?
    switch response.body {
    case .bytes(let bytes) where bytes.isEmpty:
        created = MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
    case .bytes(let bytes):
        created = bytes.withUnsafeBytes {
            MHD_create_response_from_buffer(
                $0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), .RESPMEM_MUST_COPY)
        }
    case .parts(let parts):
        // libmicrohttpd sends from the buffers until it frees the response; the box keeps them alive until then.
        let retained = Unmanaged.passRetained(PartsBox(parts))
        let regions = parts.regions
        if regions.count == 1, let region = regions.first {
            // One buffer goes out in the same sendmsg as the head; a vector is sent after it, in a second call.
            created = MHD_create_response_from_buffer_with_free_callback_cls(
                region.count, UnsafeMutableRawPointer(mutating: region.baseAddress),
                { Unmanaged<PartsBox>.fromOpaque($0!).release() }, retained.toOpaque())
        } else {
            // libmicrohttpd copies the vector itself.
            let vectors = regions.map { MHD_IoVec(iov_base: $0.baseAddress, iov_len: $0.count) }
            created = MHD_create_response_from_iovec(
                vectors, UInt32(vectors.count), { Unmanaged<PartsBox>.fromOpaque($0!).release() },
                retained.toOpaque())
        }
        if created == nil { retained.release() }
    }
    guard let created else { return .NO }
    for field in response.headers.fields { MHD_add_response_header(created, field.name, field.value) }
    if closing { MHD_add_response_header(created, "Connection", "close") }
    let result = MHD_queue_response(connection, UInt32(response.status), created)
    MHD_destroy_response(created)
    return result
}

/// Holds a response body's buffers for libmicrohttpd, which releases it when it frees the response.
private final class PartsBox: Sendable {
    let parts: ArchiveParts
    init(_ parts: ArchiveParts) { self.parts = parts }
}
