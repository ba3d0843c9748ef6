import PassArchive
import Foundation
import PassHTTP
import PassStore
/// Pass download (wallet-spec §6, call 3): 200 with the rendered pass, 304, 401.
struct PassHandlers: Sendable {
    let context: HandlerContext

    /// `GET /v1/passes/:passType/:serial`
    func latest(_ request: Request) throws(HTTPError) -> Response {
        let passType = request.parameters["passType"], serial = request.parameters["serial"]
        let version = try context.authenticatedVersion(request, passType: passType, serial: serial)

        let since = request.headers["If-Modified-Since"]
        if let since {
            // Wallet echoes our Last-Modified verbatim: an exact match needs no parsing (the hot 304 path).
            let lastModified = HTTPDate.format(version.modifiedAtSeconds)
            if since == lastModified {
                record(
                    serial, passType, tag: version.tag, since: since, sinceSeconds: version.modifiedAtSeconds,
                    status: 304, lastModified: lastModified)
                return .empty(304, headers: ["Last-Modified": lastModified])
            }
            if let seconds = HTTPDate.parse(since), seconds >= version.modifiedAtSeconds {
                record(
                    serial, passType, tag: version.tag, since: since, sinceSeconds: seconds, status: 304,
                    lastModified: lastModified)
                return .empty(304, headers: ["Last-Modified": lastModified])
            }
        }
        if let body = context.cachedBody(serial: serial, tag: version.tag) {
            record(
                serial, passType, tag: version.tag, since: since, sinceSeconds: since.flatMap(HTTPDate.parse),
                status: 200, lastModified: HTTPDate.format(version.modifiedAtSeconds))
            return Self.pkpass(body, modifiedAtSeconds: version.modifiedAtSeconds)
        }
        // Miss: render the full current version (it may be newer than `version` by now; answer with it).
        guard let pass = try context.storeCall({ try context.store.pass(passType: passType, serial: serial) }) else {
            throw .unauthorized()
        }
        let body = try context.currentBody(pass)
        let modified = Int64(pass.modifiedAt.timeIntervalSince1970)
        record(
            serial, passType, tag: pass.tag, since: since, sinceSeconds: since.flatMap(HTTPDate.parse), status: 200,
            lastModified: HTTPDate.format(modified))
        return Self.pkpass(body, modifiedAtSeconds: modified)
    }

    /// Queues the download's event (Wallet's download names no device). `sinceSeconds` is `since` parsed (the
    /// caller has it, or it equals the version's second).
    private func record(
        _ serial: String, _ passType: String, tag: Int64, since: String?, sinceSeconds: Int64?, status: Int,
        lastModified: String
    ) {
        guard let events = context.events else { return }
        events.record(
            PassEvent(
                serial: serial, passType: passType, device: nil, at: Date(), tag: tag,
                detail: .downloaded(
                    ifModifiedSince: since.map { $0.utf8.count <= 100 ? $0 : String($0.prefix(100)) },
                    ifModifiedSinceSeconds: sinceSeconds, status: status, lastModified: lastModified)))
    }

    private static func pkpass(_ body: ArchiveParts, modifiedAtSeconds: Int64) -> Response {
        Response(
            status: 200,
            headers: [
                "Content-Type": "application/vnd.apple.pkpass",
                "Last-Modified": HTTPDate.format(modifiedAtSeconds),
            ],
            body: .parts(body))
    }
}
