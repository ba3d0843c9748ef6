internal import CMicroHTTPD

/// What the C callbacks receive as `cls`: the responder and the body limit.
final class MHDContext: Sendable {
    let maxBodyBytes: Int
    let respond: @Sendable (Request) -> Response

    init(maxBodyBytes: Int, respond: @escaping @Sendable (Request) -> Response) {
        self.maxBodyBytes = maxBodyBytes
        self.respond = respond
    }
}

/// The body of one request as it arrives; owned by its connection's `*con_cls` (one MHD thread at a time).
final class MHDUpload {
    var body: [UInt8] = []
    var tooLarge = false
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
    if uploadSize.pointee > 0 {
        let upload: MHDUpload
        if current == cls {
            upload = MHDUpload()
            state.pointee = Unmanaged.passRetained(upload).toOpaque()
        } else {
            upload = Unmanaged<MHDUpload>.fromOpaque(current).takeUnretainedValue()
        }
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
    return mhdQueue(connection, context.respond(request))
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
