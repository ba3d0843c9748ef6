internal import CMicroHTTPD
import Synchronization

/// A suspended MHD connection, handed to the worker that resumes it.
private struct SuspendedConnection: @unchecked Sendable {  // only used for MHD_resume_connection, which is thread-safe
    let pointer: OpaquePointer
}

/// The MHD URI log callback: the first thing libmicrohttpd reports about a request, with the target not yet
/// decoded. Its return value becomes the request's `*con_cls`: a retained `MHDRequestState`.
let mhdRequestStarted: pm_mhd_uri_log_callback = { cls, uri, _ in
    guard let cls else { return nil }
    let context = Unmanaged<MHDContext>.fromOpaque(cls).takeUnretainedValue()
    context.openRequests.add(1, ordering: .relaxed)
    let state = uri.map(MHDRequestState.init(target:)) ?? MHDRequestState(target: "")
    return Unmanaged.passRetained(state).toOpaque()
}

/// Releases the request's `MHDRequestState`.
let mhdRequestCompleted: MHD_RequestCompletedCallback = { cls, _, state, _ in
    guard let cls, let state, let current = state.pointee else { return }
    Unmanaged<MHDRequestState>.fromOpaque(current).release()
    Unmanaged<MHDContext>.fromOpaque(cls).takeUnretainedValue().openRequests.subtract(1, ordering: .relaxed)
    state.pointee = nil
}

/// The MHD access handler, driven by the request state's phase. The head is screened on the first call; a
/// response is queued on the last call, never the first, unless the head is refused: answering on the first call
/// makes MHD close the connection, which is what a refused (possibly smuggling) request must get.
let mhdAccessHandler: MHD_AccessHandlerCallback = {
    cls, connection, _, method, version, uploadData, uploadSize, state in
    guard let cls, let connection, let uploadSize, let state, let current = state.pointee else { return .NO }
    let context = Unmanaged<MHDContext>.fromOpaque(cls).takeUnretainedValue()
    let request = Unmanaged<MHDRequestState>.fromOpaque(current).takeUnretainedValue()
    switch request.phase {
    case .started:
        do throws(HTTPError) {
            request.phase = try mhdScreen(request, connection, method: method, version: version, context.limits)
            return .YES
        } catch {
            request.phase = .rejected
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

/// The head as handlers will see it, or the error that refuses it (see `RequestScreen`).
private func mhdScreen(
    _ request: MHDRequestState, _ connection: OpaquePointer, method: UnsafePointer<CChar>?,
    version: UnsafePointer<CChar>?, _ limits: RequestLimits
) throws(HTTPError) -> MHDRequestState.Phase {
    guard request.isWholeTarget(version: version) else {
        throw .badRequest("the request target contains a NUL byte")
    }
    request.clientAddress = mhdClientAddress(connection)
    let (path, query) = try RequestScreen.target(request.target, limits: limits)
    let methodName = HTTPMethod(method.map { String(cString: $0) } ?? "GET")
    request.bodyLimit = limits.bodyLimit(method: methodName, path: path)
    let headers = try RequestScreen.headers(mhdHeaderFields(connection), limits: limits, bodyLimit: request.bodyLimit)
    return .receiving(method: methodName, path: path, query: query, headers: headers)
}

/// The peer's IP address as text, "" when libmicrohttpd does not know it.
private func mhdClientAddress(_ connection: OpaquePointer) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    let count = buffer.count
    guard pm_mhd_client_address(connection, &buffer, socklen_t(count)) != 0 else { return "" }
    return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}

/// The request's header fields with their exact lengths (a NUL inside a name or value stays visible).
private func mhdHeaderFields(_ connection: OpaquePointer) -> [RequestScreen.RawField] {
    var fields: [RequestScreen.RawField] = []
    withUnsafeMutablePointer(to: &fields) { pointer in
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
                cls.assumingMemoryBound(to: [RequestScreen.RawField].self).pointee.append(
                    RequestScreen.RawField(name: bytes(key, keySize), value: bytes(value, valueSize)))
                return .YES
            }, pointer)
    }
    return fields
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
    case .shared(let shared):
        let retained = Unmanaged.passRetained(shared)
        created = MHD_create_response_from_buffer_with_free_callback_cls(
            shared.count, shared.storage.baseAddress, { Unmanaged<SharedBytes>.fromOpaque($0!).release() },
            retained.toOpaque())
        if created == nil { retained.release() }
    }
    guard let created else { return .NO }
    for field in response.headers.fields { MHD_add_response_header(created, field.name, field.value) }
    if closing { MHD_add_response_header(created, "Connection", "close") }
    let result = MHD_queue_response(connection, UInt32(response.status), created)
    MHD_destroy_response(created)
    return result
}
