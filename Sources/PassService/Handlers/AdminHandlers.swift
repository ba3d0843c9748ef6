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
    /// caller's `RecordValidator`; stored with a new tag and one queued push per registered device. Two keys are
    /// the pass's state, not fields: `voided` (a JSON boolean; true cancels the card) and `expirationDate` (an
    /// ISO 8601 date, or null to restore the template's).
    func update(_ request: Request) throws(HTTPError) -> Response {
        try authorize(request)
        let serial = request.parameters["serial"]
        var body = try decodeBody([String: JSONScalar].self, request, expected: #"{"field": "value", …}"#)
        var voided: Bool?
        if let value = body.removeValue(forKey: "voided") {
            guard let flag = value.bool else {
                throw .badRequest("voided must be a JSON boolean (true cancels the pass), not \"\(value.text)\"")
            }
            voided = flag
        }
        if let null = body.first(where: { $0.value.isNull && $0.key != "expirationDate" }) {
            throw .badRequest("\(null.key) is null; give a value (only expirationDate can be null, to clear it)")
        }
        let changes = body.mapValues(\.text)
        guard !changes.isEmpty || voided != nil else { throw .badRequest("the body names no field to change") }
        guard let pass = try context.storeCall({ try context.store.pass(serial: serial) }) else {
            throw .notFound("no stored pass has serial number \(serial)")
        }
        let record: [String: String]
        do {
            record = try context.recordValidator(pass, changes)
        } catch {
            throw .badRequest("\(error)")
        }
        let (updated, queued) = try context.storeCall {
            try context.store.updateRecord(serial: serial, record: record, images: nil, voided: voided)
        }
        context.onRecordUpdated(updated, queued)
        var view = Self.view(updated)
        view.pushesQueued = queued
        return .json(200, encoding: view)
    }

    private func authorize(_ request: Request) throws(HTTPError) {
        try context.authorizeAdmin(request)
    }

    private static func view(_ pass: StoredPass) -> PassView {
        PassView(
            serialNumber: pass.serialNumber, passTypeIdentifier: pass.passTypeIdentifier,
            template: pass.templatePath, record: pass.record, tag: String(pass.tag),
            lastModified: HTTPDate.format(Int64(pass.modifiedAt.timeIntervalSince1970)), voided: pass.voided,
            webServiceURL: pass.webServiceURL, compatiblePass: pass.compatiblePass)
    }
}
