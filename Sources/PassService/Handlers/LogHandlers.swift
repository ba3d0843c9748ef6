import PassHTTP
import PassLog
/// `POST /v1/log` (wallet-spec §6, call 5): Wallet's diagnostics, stored as untrusted text.
struct LogHandlers: Sendable {
    let context: HandlerContext
    static let maxLines = 100
    static let maxLineLength = 4096

    private struct LogBody: Decodable {
        var logs: [String]
    }

    func append(_ request: Request) throws(HTTPError) -> Response {
        let body = try decodeBody(LogBody.self, request, expected: #"{"logs": ["…"]}"#)
        let lines = body.logs.prefix(Self.maxLines).map { String($0.prefix(Self.maxLineLength)) }
        try context.storeCall { try context.store.appendLogs(Array(lines)) }
        return .empty(200)
    }
}

/// `POST /v1/passes/:passType/:serial/personalize` (wallet-spec §6, call 6): rewards enrollment.
struct PersonalizationHandlers: Sendable {
    let context: HandlerContext

    private struct PersonalizeBody: Decodable {
        var personalizationToken: String
        var requiredPersonalizationInfo: [String: String]?
    }

    func personalize(_ request: Request) throws(HTTPError) -> Response {
        guard let signer = context.tokenSigner else {
            throw .notFound("personalization is not enabled on this service")
        }
        let passType = request.parameters["passType"], serial = request.parameters["serial"]
        let body = try decodeBody(
            PersonalizeBody.self, request,
            expected: #"{"personalizationToken": "…", "requiredPersonalizationInfo": {…}}"#)
        guard !body.personalizationToken.isEmpty else { throw .badRequest("personalizationToken is empty") }
        let known = try context.storeCall { try context.store.passVersion(passType: passType, serial: serial) }
        guard known != nil else { throw .notFound("no pass \(serial) of type \(passType)") }
        try context.storeCall {
            try context.store.storePersonalization(
                passType: passType, serial: serial, token: body.personalizationToken,
                info: body.requiredPersonalizationInfo ?? [:])
        }
        let signature: [UInt8]
        do {
            signature = try signer(Array(body.personalizationToken.utf8))
        } catch {
            ServiceLog.error("signing the personalization token of \(serial) failed: \(error)")
            throw .internalError("the personalization token could not be signed; see the server log")
        }
        return Response(status: 200, headers: ["Content-Type": "application/octet-stream"], body: .bytes(signature))
    }
}

/// `/healthz` and `/metrics`.
struct OperationsHandlers: Sendable {
    let context: HandlerContext

    func health(_ request: Request) throws(HTTPError) -> Response {
        .text(200, "ok\n")
    }

    func metrics(_ request: Request) throws(HTTPError) -> Response {
        let registrations = try? context.store.registrationsCount()
        let depth = try? context.store.outboxDepth()
        let installs = context.metrics.installTotals { try context.store.installTotals() }
        return .text(
            200, context.metrics.render(registrations: registrations, outboxDepth: depth, installs: installs),
            contentType: "text/plain; version=0.0.4; charset=utf-8")
    }
}
