import PassArchive
import PassStore
import PassHTTP
import PassLog
/// What more than one handler group needs: the current signed body of a pass, the admin check.
extension HandlerContext {
    /// The cached body of this version signed by the identity in use now; nil when there is none (a body signed
    /// by an identity replaced since is never handed out).
    func cachedBody(serial: String, tag: Int64) -> ArchiveParts? {
        cache.body(serial: serial, tag: tag, identityGeneration: renderer.identityGeneration)
    }

    /// The signed `.pkpass` of `pass` as stored now: from the render cache by (serial, tag), else rendered and
    /// cached under the identity that signed it, so a Wallet download and a distribution link give the same bytes.
    func currentBody(_ pass: StoredPass) throws(HTTPError) -> ArchiveParts {
        if let body = cachedBody(serial: pass.serialNumber, tag: pass.tag) { return body }
        let rendered: (body: ArchiveParts, identityGeneration: Int)
        do {
            rendered = try renderer.renderSigned(pass)
        } catch {
            ServiceLog.error("rendering pass \(pass.serialNumber) (tag \(pass.tag)) failed", error)
            throw .internalError("the pass could not be rendered; see the server log")
        }
        // Joined once: a body in one buffer goes out with the response head in one system call, where one in
        // pieces takes two, which costs a cached download more than this copy costs the first.
        let body = rendered.body.joined()
        cache.insert(
            serial: pass.serialNumber, tag: pass.tag, body: body, identityGeneration: rendered.identityGeneration)
        return body
    }

    /// Admin calls need `Authorization: Bearer <token>` (compared in constant time); 403 while the API is off.
    func authorizeAdmin(_ request: Request) throws(HTTPError) {
        try authorizeAdmin(request.headers)
    }

    /// The same check on a request's head alone (`Routes.headGuard`), before any body byte is read.
    func authorizeAdmin(_ headers: HTTPHeaders) throws(HTTPError) {
        guard let expected = adminToken else {
            throw HTTPError(403, "the admin API is disabled; set \(adminTokenVariable) to enable it")
        }
        guard let token = authorizationCredentials(headers, scheme: "Bearer"), constantTimeEquals(token, expected)
        else {
            throw HTTPError(401, "missing or wrong bearer token", headers: [("WWW-Authenticate", "Bearer")])
        }
    }
}
