import PassHTTP
/// Pass download (wallet-spec §6, call 3): 200 with the rendered pass, 304, 401.
struct PassHandlers: Sendable {
    let context: HandlerContext

    /// `GET /v1/passes/:passType/:serial`
    func latest(_ request: Request) throws(HTTPError) -> Response {
        let passType = request.parameters["passType"], serial = request.parameters["serial"]
        let version = try context.authenticatedVersion(request, passType: passType, serial: serial)

        if let since = request.headers["If-Modified-Since"] {
            // Wallet echoes our Last-Modified verbatim: an exact match needs no parsing (the hot 304 path).
            let lastModified = HTTPDate.format(version.modifiedAtSeconds)
            if since == lastModified || (HTTPDate.parse(since).map { $0 >= version.modifiedAtSeconds } ?? false) {
                return .empty(304, headers: ["Last-Modified": lastModified])
            }
        }
        if let body = context.cachedBody(serial: serial, tag: version.tag) {
            return Self.pkpass(body, modifiedAtSeconds: version.modifiedAtSeconds)
        }
        // Miss: render the full current version (it may be newer than `version` by now; answer with it).
        guard let pass = try context.storeCall({ try context.store.pass(passType: passType, serial: serial) }) else {
            throw .unauthorized()
        }
        let body = try context.currentBody(pass)
        return Self.pkpass(body, modifiedAtSeconds: Int64(pass.modifiedAt.timeIntervalSince1970))
    }

    private static func pkpass(_ body: SharedBytes, modifiedAtSeconds: Int64) -> Response {
        Response(
            status: 200,
            headers: [
                "Content-Type": "application/vnd.apple.pkpass",
                "Last-Modified": HTTPDate.format(modifiedAtSeconds),
            ],
            body: .shared(body))
    }
}
