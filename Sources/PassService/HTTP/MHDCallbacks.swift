internal import CMicroHTTPD
import Synchronization

/// What the C callbacks receive as `cls`: the responder, the body limit, and the workers that run requests
/// which change state (nil: every request is answered on the network thread).
final class MHDContext: Sendable {
    let maxBodyBytes: Int
    let respond: @Sendable (Request) -> Response
    let workers: BlockingWorkers?

    init(maxBodyBytes: Int, workers: BlockingWorkers?, respond: @escaping @Sendable (Request) -> Response) {
        self.maxBodyBytes = maxBodyBytes
        self.workers = workers
        self.respond = respond
    }
}

/// The body of one request as it arrives, and its response when a worker makes it; owned by its connection's
/// `*con_cls` (one MHD thread at a time).
final class MHDUpload {
    var body: [UInt8] = []
    var tooLarge = false
    /// Set when the request was handed to a worker; holds the response once the worker resumed the connection.
    var offloaded: OffloadedResponse?
}

/// The response a worker made for a suspended connection.
final class OffloadedResponse: Sendable {
    let response = Mutex<Response?>(nil)
}

/// A suspended MHD connection, handed to the worker that resumes it.
private struct SuspendedConnection: @unchecked Sendable {  // only used for MHD_resume_connection, which is thread-safe
    let pointer: OpaquePointer
}

private typealias Fields = [(name: String, value: String)]

/// The MHD access handler. `*con_cls` is nil on the first call (headers only), then the context pointer as a
/// marker, or an `MHDUpload` once body bytes arrived. The response is queued on the last call, never the first:
/// answering on the first call makes MHD close keep-alive connections.
let mhdAccessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadSize, state in
    guard let cls, let connection, let uploadSize, let state else { return .NO }
    let context = Unmanaged<MHDContext>.fromOpaque(cls).takeUnretainedValue()
    guard let current = state.pointee else {
        if let length = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length"),
            let bytes = Int(String(cString: length)), bytes > context.maxBodyBytes
        {
            return mhdQueue(connection, tooLarge(context))
        }
        state.pointee = cls
        return .YES
    }
    if current != cls, let offloaded = Unmanaged<MHDUpload>.fromOpaque(current).takeUnretainedValue().offloaded {
        // Called again after the worker resumed the connection: answer with what it made.
        let response = offloaded.response.withLock { $0.take() }
        return mhdQueue(connection, response ?? HTTPError(500, "the request was not answered").response)
    }
    if uploadSize.pointee > 0 {
        let upload = mhdUpload(state, marker: cls)
        let count = uploadSize.pointee
        if upload.tooLarge || upload.body.count + count > context.maxBodyBytes {
            upload.tooLarge = true
            upload.body = []
        } else if let uploadData {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: count) {
                upload.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
            }
        }
        uploadSize.pointee = 0
        return .YES
    }
    var body: [UInt8] = []
    if current != cls {
        let upload = Unmanaged<MHDUpload>.fromOpaque(current).takeUnretainedValue()
        if upload.tooLarge { return mhdQueue(connection, tooLarge(context)) }
        body = upload.body
    }
    let request = Request(
        method: HTTPMethod(method.map { String(cString: $0) } ?? "GET"),
        path: url.map { String(cString: $0) } ?? "/",
        query: mhdValues(connection, .GET_ARGUMENT_KIND),
        headers: HTTPHeaders(mhdValues(connection, .HEADER_KIND)),
        body: body)
    if request.method != .get, request.method != .head, let workers = context.workers, workers.reserve() {
        let upload = mhdUpload(state, marker: cls)
        let offloaded = OffloadedResponse()
        upload.offloaded = offloaded
        MHD_suspend_connection(connection)
        let suspended = SuspendedConnection(pointer: connection)
        workers.run {
            let response = context.respond(request)
            offloaded.response.withLock { $0 = response }
            MHD_resume_connection(suspended.pointer)
        }
        return .YES
    }
    return mhdQueue(connection, context.respond(request))
}

/// The request's `MHDUpload`, created (and owned by `*con_cls` until `mhdRequestCompleted`) when `*con_cls` still
/// holds the context pointer as a marker.
private func mhdUpload(_ state: UnsafeMutablePointer<UnsafeMutableRawPointer?>, marker: UnsafeMutableRawPointer)
    -> MHDUpload
{
    if let current = state.pointee, current != marker {
        return Unmanaged<MHDUpload>.fromOpaque(current).takeUnretainedValue()
    }
    let upload = MHDUpload()
    state.pointee = Unmanaged.passRetained(upload).toOpaque()
    return upload
}

/// Releases the request's `MHDUpload`, if any.
let mhdRequestCompleted: MHD_RequestCompletedCallback = { cls, _, state, _ in
    guard let state, let current = state.pointee else { return }
    if current != cls { Unmanaged<MHDUpload>.fromOpaque(current).release() }
    state.pointee = nil
}

private func tooLarge(_ context: MHDContext) -> Response {
    HTTPError(413, "request body larger than \(context.maxBodyBytes) bytes").response
}

private func mhdValues(_ connection: OpaquePointer, _ kind: MHD_ValueKind) -> Fields {
    var fields: Fields = []
    withUnsafeMutablePointer(to: &fields) { pointer in
        _ = MHD_get_connection_values(
            connection, kind,
            { cls, _, key, value in
                guard let cls, let key else { return .YES }
                cls.assumingMemoryBound(to: Fields.self).pointee.append(
                    (String(cString: key), value.map { String(cString: $0) } ?? ""))
                return .YES
            }, pointer)
    }
    return fields
}

private func mhdQueue(_ connection: OpaquePointer, _ response: Response) -> MHD_Result {
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
    let result = MHD_queue_response(connection, UInt32(response.status), created)
    MHD_destroy_response(created)
    return result
}
