import Foundation

/// `GET` / `PATCH /admin/v1/passes/:serial` behind `Authorization: Bearer <token>`.
struct AdminHandlers: Sendable {
    let context: HandlerContext

    private struct PassView: Encodable {
        struct Registration: Encodable {
            var deviceLibraryIdentifier: String
            var registeredAt: Date
        }
        struct Push: Encodable {
            var result: String
            var tag: String
            var at: Date
            var detail: String
        }
        var serialNumber: String
        var passTypeIdentifier: String
        var template: String
        var record: [String: String]
        var tag: String
        var lastModified: String
        var voided: Bool
        var webServiceURL: String?
        var compatiblePass: Bool
        var registrations: [Registration]?
        var pushes: [Push]?
        var pendingPushes: Int?
        var pushesQueued: Int?
    }

    /// Record, registrations and push history.
    func show(_ request: Request) throws(HTTPError) -> Response {
        try authorize(request)
        let serial = request.parameters["serial"]
        guard let details = try context.storeCall({ try context.store.details(serial: serial) }) else {
            throw .notFound("no stored pass has serial number \(serial)")
        }
        var view = Self.view(details.pass)
        view.registrations = details.registrations.map {
            .init(deviceLibraryIdentifier: $0.deviceLibraryIdentifier, registeredAt: $0.registeredAt)
        }
        view.pushes = details.pushHistory.map {
            .init(result: $0.result.rawValue, tag: String($0.tag), at: $0.at, detail: $0.detail)
        }
        view.pendingPushes = details.pendingPushes
        return .json(200, encoding: view)
    }

    /// Body: a flat JSON object of field names to new values (strings, numbers or booleans). Validated by the
    /// caller's `RecordValidator`; stored with a new tag and one queued push per registered device.
    func update(_ request: Request) throws(HTTPError) -> Response {
        try authorize(request)
        let serial = request.parameters["serial"]
        let changes = try decodeBody([String: JSONScalar].self, request, expected: #"{"field": "value", …}"#)
            .mapValues(\.text)
        guard !changes.isEmpty else { throw .badRequest("the body names no field to change") }
        guard let pass = try context.storeCall({ try context.store.pass(serial: serial) }) else {
            throw .notFound("no stored pass has serial number \(serial)")
        }
        let record: [String: String]
        do {
            record = try context.recordValidator(pass, changes)
        } catch {
            throw .badRequest("\(error)")
        }
        let (updated, queued) = try context.storeCall { try context.store.updateRecord(serial: serial, record: record) }
        context.onRecordUpdated(updated, queued)
        var view = Self.view(updated)
        view.pushesQueued = queued
        return .json(200, encoding: view)
    }

    /// Install figures (`InstallReport.json`): query `from` and `to` (UTC days, `YYYY-MM-DD`, both included) and
    /// `template` (a template name), each optional.
    func stats(_ request: Request) throws(HTTPError) -> Response {
        try authorize(request)
        func day(_ name: String) throws(HTTPError) -> UTCDay? {
            guard let text = request.queryValue(name) else { return nil }
            guard let day = UTCDay(text) else {
                throw .badRequest("query \(name)=\(text) is not a day; give YYYY-MM-DD (UTC), e.g. 2026-12-01")
            }
            return day
        }
        let query = InstallStatsQuery(
            from: try day("from"), to: try day("to"), template: request.queryValue("template"))
        if let from = query.from, let to = query.to, from > to {
            throw .badRequest("query from=\(from) is after to=\(to)")
        }
        let report = try context.storeCall { try context.store.installReport(query) }
        return .json(200, String(decoding: report.json(), as: UTF8.self))
    }

    private func authorize(_ request: Request) throws(HTTPError) {
        guard let expected = context.adminToken else {
            throw HTTPError(403, "the admin API is disabled; set \(context.adminTokenVariable) to enable it")
        }
        guard let token = authorizationCredentials(request, scheme: "Bearer"), constantTimeEquals(token, expected)
        else {
            throw HTTPError(401, "missing or wrong bearer token", headers: [("WWW-Authenticate", "Bearer")])
        }
    }

    private static func view(_ pass: StoredPass) -> PassView {
        PassView(
            serialNumber: pass.serialNumber, passTypeIdentifier: pass.passTypeIdentifier,
            template: pass.templatePath, record: pass.record, tag: String(pass.tag),
            lastModified: HTTPDate.format(Int64(pass.modifiedAt.timeIntervalSince1970)), voided: pass.voided,
            webServiceURL: pass.webServiceURL, compatiblePass: pass.compatiblePass)
    }
}
