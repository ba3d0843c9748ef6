/// A request as far as it is known before any body byte is read: its screened head.
struct RequestHead {
    var method: HTTPMethod
    /// The path as sent (percent-encoding intact), as the router gets it; judge it in its `RequestPath` form.
    var path: String
    var headers: HTTPHeaders
}

/// What the service decides from a request's head alone, before the adapter reads (or invites, with
/// `100 Continue`) its body: how much body it may send, or the error that refuses it on its head, with nothing
/// read into memory. The service owns what the routes mean (which are admin routes, which take a bulk body);
/// the adapter only applies the verdict.
struct HeadGuard: Sendable {
    enum Verdict {
        /// Read at most `bodyLimit` body bytes (past it: 413).
        case read(bodyLimit: Int)
        /// Answer `error` now and close the connection; the body is never read.
        case refuse(HTTPError)
    }

    let decide: @Sendable (RequestHead) -> Verdict

    /// Every request may send `bodyLimit` bytes; nothing is refused on its head.
    static func uniform(bodyLimit: Int) -> HeadGuard { HeadGuard { _ in .read(bodyLimit: bodyLimit) } }
}
