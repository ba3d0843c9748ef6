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

    private struct UpdateJobView: Encodable {
        struct Failure: Encodable {
            var line: Int
            var column: String?
            var message: String
        }
        var id: String
        var status: String
        var rows: Int
        var changed: Int
        var unchanged: Int
        var failed: Int
        var pushesQueued: Int
        var failures: [Failure]
        var message: String?
        var createdAt: Date
        var updatedAt: Date
    }

    /// Body: CSV (`text/csv`, a header with serialNumber and the fields to change) or JSON Lines
    /// (`application/x-ndjson`, one object per line). 202 with the job's status and its `Location`; the job runs
    /// on the service's job thread.
    func submitUpdates(_ request: Request) throws(HTTPError) -> Response {
        try authorize(request)
        guard let jobs = context.updateJobs else { throw HTTPError(501, "this service runs no bulk updates") }
        let type = (request.headers["Content-Type"] ?? "").split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        let format: UpdateJobRunner.Format
        switch type {
        case "text/csv": format = .csv
        case "application/x-ndjson", "application/jsonl", "application/x-jsonlines": format = .jsonLines
        default:
            throw HTTPError(
                415,
                "send the changes as Content-Type text/csv (a header with serialNumber and the fields) or "
                    + "application/x-ndjson (one JSON object per line)")
        }
        guard !request.body.isEmpty else { throw .badRequest("the body holds no rows") }
        let job: UpdateJobStatus
        switch try context.storeCall({ try jobs.submit(body: request.body, format: format) }) {
        case .accepted(let accepted): job = accepted
        case .busy(let waiting):
            throw HTTPError(
                503, "\(waiting) bulk updates are already waiting on this instance; try again when one has finished",
                headers: [(name: "Retry-After", value: "30")])
        }
        var response = Response.json(202, encoding: Self.view(job))
        response.headers.add("Location", "\(Routes.bulkUpdatesPath)/\(job.id)")
        return response
    }

    /// The status of a bulk update: counts, the first failed rows, pushes queued.
    func showUpdates(_ request: Request) throws(HTTPError) -> Response {
        try authorize(request)
        guard let jobs = context.updateJobs else { throw HTTPError(501, "this service runs no bulk updates") }
        let id = request.parameters["id"]
        guard let job = try context.storeCall({ try jobs.status(id: id) }) else {
            throw .notFound("no bulk update has id \(id)")
        }
        return .json(200, encoding: Self.view(job))
    }

    private static func view(_ job: UpdateJobStatus) -> UpdateJobView {
        UpdateJobView(
            id: job.id, status: job.state.rawValue, rows: job.rows, changed: job.changed, unchanged: job.unchanged,
            failed: job.failed, pushesQueued: job.pushesQueued,
            failures: job.failures.map { .init(line: $0.line, column: $0.column, message: $0.message) },
            message: job.message, createdAt: job.createdAt, updatedAt: job.updatedAt)
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
