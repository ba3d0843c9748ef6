/// Checks of a request's head that libmicrohttpd does not make, run on exactly what it received and before
/// routing, so that no handler and no store access ever sees a request-smuggling shape, a target cut short by a
/// NUL, or a head past the `RequestLimits`.
enum RequestScreen {
    /// One header field as received, as bytes: libmicrohttpd reports their lengths, so a NUL inside shows.
    struct RawField {
        var name: [UInt8]
        var value: [UInt8]
    }

    /// Splits the raw request target into its path (percent-encoding intact, for the router) and its decoded
    /// query arguments.
    /// - Throws: 414 past `maxURLBytes`; 400 for a control byte (raw or percent-encoded), a malformed escape in
    ///   the query, or bytes that are not UTF-8.
    static func target(_ raw: [UInt8], limits: RequestLimits) throws(HTTPError)
        -> (path: String, query: [(name: String, value: String)])
    {
        guard raw.count <= limits.maxURLBytes else {
            throw HTTPError(
                414,
                "the request target is \(raw.count) bytes; at most \(limits.maxURLBytes) are "
                    + "accepted (the service's request-target limit)")
        }
        guard !raw.contains(where: PercentDecoding.isControl) else {
            throw .badRequest("the request target contains a control character")
        }
        guard let text = String(validating: raw, as: UTF8.self) else {
            throw .badRequest("the request target is not UTF-8")
        }
        guard let mark = text.utf8.firstIndex(of: UInt8(ascii: "?")) else { return (text, []) }
        var query: [(name: String, value: String)] = []
        for item in text[text.index(after: mark)...].split(separator: "&") {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            do {
                query.append(
                    (
                        try PercentDecoding.decode(pair[0], plusIsSpace: true),
                        pair.count > 1 ? try PercentDecoding.decode(pair[1], plusIsSpace: true) : ""
                    ))
            } catch {
                throw .badRequest("the query string contains \(error.message)")
            }
        }
        return (String(text[..<mark]), query)
    }

    /// The header fields as handlers see them. libmicrohttpd then reads the body by the one framing let through.
    /// - Throws: 431 past `maxHeaderCount` or `maxHeaderBytes`; 400 for a name that is not an HTTP token, a
    ///   value with a control character or bytes that are not UTF-8, more than one `Content-Length`, one that is
    ///   not a plain decimal number, more than one `Transfer-Encoding`, or `Content-Length` together with
    ///   `Transfer-Encoding` (the request-smuggling shapes), no `Host` when `requiresHost` (HTTP/1.1) or more
    ///   than one; 501 for a transfer coding other than `chunked`; 413 for a declared length past `bodyLimit`
    ///   (default `maxBodyBytes`).
    static func headers(
        _ fields: [RawField], limits: RequestLimits, bodyLimit: Int? = nil, requiresHost: Bool = false
    ) throws(HTTPError) -> HTTPHeaders {
        guard fields.count <= limits.maxHeaderCount else {
            throw HTTPError(
                431,
                "the request has \(fields.count) header fields; at most \(limits.maxHeaderCount) "
                    + "are accepted (the service's header-count limit)")
        }
        let bytes = fields.reduce(0) { $0 + $1.name.count + $1.value.count }
        guard bytes <= limits.maxHeaderBytes else {
            throw HTTPError(
                431,
                "the request's header fields are \(bytes) bytes; at most \(limits.maxHeaderBytes) "
                    + "are accepted (the service's header-size limit)")
        }
        var headers = HTTPHeaders()
        var lengths: [String] = [], codings: [String] = []
        var hosts = 0
        for field in fields {
            // Values are never echoed: an Authorization header carries a token.
            guard !field.name.isEmpty, field.name.allSatisfy(isTokenCharacter),
                let name = String(validating: field.name, as: UTF8.self)
            else { throw .badRequest("a header field name contains a character HTTP does not allow") }
            guard !field.value.contains(where: { PercentDecoding.isControl($0) && $0 != 0x09 }) else {
                throw .badRequest("header \(name) contains a control character")
            }
            guard let value = String(validating: field.value, as: UTF8.self) else {
                throw .badRequest("header \(name) is not UTF-8")
            }
            if asciiCaseInsensitiveEquals(name, "Content-Length") { lengths.append(value) }
            if asciiCaseInsensitiveEquals(name, "Transfer-Encoding") { codings.append(value) }
            if asciiCaseInsensitiveEquals(name, "Host") { hosts += 1 }
            headers.add(name, value)
        }
        // RFC 9112 §3.2: exactly one Host in HTTP/1.1, at most one otherwise; a proxy in front and this server
        // must not pick different ones.
        guard hosts <= 1 else { throw .badRequest("the request has more than one Host header") }
        guard hosts == 1 || !requiresHost else { throw .badRequest("an HTTP/1.1 request needs a Host header") }
        try checkFraming(lengths: lengths, codings: codings, bodyLimit: bodyLimit ?? limits.maxBodyBytes)
        return headers
    }

    /// One way to find the body's end, never two: a front proxy and this server must agree where it ends.
    private static func checkFraming(lengths: [String], codings: [String], bodyLimit: Int) throws(HTTPError) {
        guard lengths.count <= 1 else { throw .badRequest("the request has more than one Content-Length header") }
        guard codings.count <= 1 else { throw .badRequest("the request has more than one Transfer-Encoding header") }
        if let coding = codings.first {
            guard lengths.isEmpty else {
                throw .badRequest("the request has both Content-Length and Transfer-Encoding; send one of them")
            }
            guard asciiCaseInsensitiveEquals(trimmed(coding), "chunked") else {
                throw HTTPError(501, "Transfer-Encoding must be chunked")
            }
            return
        }
        guard let text = lengths.first else { return }
        let digits = trimmed(text)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let length = Int(digits) else {
            throw .badRequest("Content-Length must be a decimal number of bytes")
        }
        guard length <= bodyLimit else { throw bodyTooLarge(bodyLimit) }
    }

    /// The body length the head declares (`Content-Length`, already checked by `headers`); nil for none or a
    /// chunked body.
    static func declaredLength(_ headers: HTTPHeaders) -> Int? {
        guard let text = headers["Content-Length"] else { return nil }
        return Int(trimmed(text))
    }

    /// The 413 for a body past the request's body limit, declared or counted.
    static func bodyTooLarge(_ bodyLimit: Int) -> HTTPError {
        HTTPError(413, "the request body is larger than \(bodyLimit) bytes (the service's body limit)")
    }

    /// RFC 9110 `tchar`.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "a")...UInt8(ascii: "z"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// `value` without HTTP's optional whitespace (SP, HTAB) around it.
    private static func trimmed(_ value: String) -> String {
        var text = Substring(value)
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
