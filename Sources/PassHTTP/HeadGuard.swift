/// A request as far as it is known before any body byte is read: its screened head.
package struct RequestHead {
    package var method: HTTPMethod
    /// The path as sent (percent-encoding intact), as the router gets it; judge it in its `RequestPath` form.
    package var path: String
    package var headers: HTTPHeaders
}

/// What the service decides from a request's head alone, before the adapter reads (or invites, with
/// `100 Continue`) its body: how much body it may send, or the error that refuses it on its head, with nothing
/// read into memory. The service owns what the routes mean (which are admin routes, which take a bulk body);
/// the adapter only applies the verdict.
package struct HeadGuard: Sendable {
    package enum Verdict {
        /// Read at most `bodyLimit` body bytes (past it: 413).
        case read(bodyLimit: Int)
        /// Answer `error` now and close the connection; the body is never read.
        case refuse(HTTPError)
    }

    let decide: @Sendable (RequestHead) -> Verdict

    package init(decide: @escaping @Sendable (RequestHead) -> Verdict) {
        self.decide = decide
    }

    /// Every request may send `bodyLimit` bytes; nothing is refused on its head.
    package static func uniform(bodyLimit: Int) -> HeadGuard { HeadGuard { _ in .read(bodyLimit: bodyLimit) } }
}
