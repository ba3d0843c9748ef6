import Foundation
import PassStore
import PassHTTP
import PassOperations
import PassModel
import PassTemplates
import PassLog

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
        var changed: Bool?
        var pushesQueued: Int?
        var pushesAlreadyPending: Int?
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

    /// Body: a JSON object of field names to new values (strings, numbers or booleans), or to `{"add": N}` to add N
    /// to a number field (negative subtracts; added to the value stored at the moment of the write, under the row
    /// lock, so concurrent additions all count). Validated by the caller's `RecordValidator`; stored with a new tag
    /// and one queued push per registered device, unless the pass is left as it was (`"changed": false`: no tag,
    /// no push). Two keys are the pass's state, not fields: `voided` (a JSON boolean; true cancels the card) and
    /// `expirationDate` (an ISO 8601 date, or null to restore the template's).
    func update(_ request: Request) throws -> Response {
        try authorize(request)
        let serial = request.parameters["serial"]
        let body = try decodeObjectBody(request, expected: #"{"field": "value" or {"add": N}, …}"#)
        let (change, voided) = try Self.change(from: body)
        guard !change.isEmpty || voided != nil else { throw HTTPError.badRequest("the body names no field to change") }
        let validator = context.recordValidator
        // Checked once outside the transaction: a refusal costs no row lock, and the template is loaded (it may be
        // read from the store) before a pooled connection is held for the write.
        guard let snapshot = try context.storeCall({ try context.store.pass(serial: serial) }) else {
            throw HTTPError.notFound("no stored pass has serial number \(serial)")
        }
        do { _ = try validator(snapshot, change) } catch { throw Self.refusal(error) }
        let result: Result<PassModificationOutcome, Refused>? = try context.storeCall {
            do {
                return .success(
                    try context.store.modifyPass(serial: serial) { current in
                        do {
                            return PassModification(record: try validator(current, change), voided: voided)
                        } catch {
                            throw Refused(underlying: error)
                        }
                    })
            } catch let refused as Refused {
                return .failure(refused)
            } catch StoreError.passNotFound {
                return nil
            }
        }
        guard let result else { throw HTTPError.notFound("no stored pass has serial number \(serial)") }
        let outcome: PassModificationOutcome
        switch result {
        case .success(let done): outcome = done
        case .failure(let refused): throw Self.refusal(refused.underlying)
        }
        if outcome.changed { context.onRecordUpdated(outcome.pass, outcome.pushesQueued) }
        var view = Self.view(outcome.pass)
        view.changed = outcome.changed
        view.pushesQueued = outcome.pushesQueued
        view.pushesAlreadyPending = outcome.pushesAlreadyPending
        return .json(200, encoding: view)
    }

    /// A validator's refusal, carried out of the store's transaction (which it rolls back) to be answered by its
    /// own status.
    private struct Refused: Error {
        let underlying: any Error
    }

    /// The change a PATCH body asks for: values, amounts (`{"add": N}`) and the voided state.
    private static func change(from body: [String: JSONValue]) throws(HTTPError) -> (RecordChange, Bool?) {
        var change = RecordChange()
        var voided: Bool?
        for (key, value) in body.sorted(by: { $0.key < $1.key }) {
            if key == "voided" {
                guard case .bool(let flag) = value else {
                    throw .badRequest("voided must be a JSON boolean (true cancels the pass), not \(Self.text(value))")
                }
                voided = flag
                continue
            }
            switch value {
            case .null:
                guard key == "expirationDate" else {
                    throw .badRequest("\(key) is null; give a value (only expirationDate can be null, to clear it)")
                }
                change.values[key] = ""
            case .string, .integer, .double, .bool:
                change.values[key] = Self.text(value)
            case .object(let members):
                guard members.count == 1, let amount = members["add"], Self.isNumber(amount) else {
                    throw .badRequest(
                        #"\#(key) must be a value or {"add": N} with a number N (e.g. {"\#(key)": {"add": 10}})"#)
                }
                change.amounts[key] = Self.text(amount)
            case .array:
                throw .badRequest("\(key) is an array; give a string, number or boolean, or {\"add\": N}")
            }
        }
        return (change, voided)
    }

    private static func isNumber(_ value: JSONValue) -> Bool {
        switch value {
        case .integer, .double: return true
        case .string(let text): return !text.isEmpty
        default: return false
        }
    }

    /// A scalar as the record stores it.
    private static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .double(let number): return number.description
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .array, .object: return String(decoding: JSONWriter.serialize(value, pretty: false), as: UTF8.self)
        }
    }

    /// What the client is answered for a validator's error: the error itself (its own status, a 500 when it has
    /// none), or in the admin API's own terms for "+10", which shows both JSON forms.
    private static func refusal(_ error: any Error) -> any Error {
        guard case .change(.value(.signedValue(let field, let value, _)))? = error as? OperationError else {
            return error
        }
        let number = String(value.drop { $0 == " " || $0 == "+" })
        return HTTPError.badRequest(
            #""\#(field)": "\#(value)" would set \#(field) to \#(number), not add \#(number) to it; send "#
                + #"{"\#(field)": \#(number)} to set it or {"\#(field)": {"add": \#(number)}} to add \#(number)"#)
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

    /// What happened to the pass and why an update did not arrive (`PassTrace`): JSON, or the plain text with
    /// `?format=text`; `?window=SECONDS` as `passmint trace --window`.
    func trace(_ request: Request) throws(HTTPError) -> Response {
        try authorize(request)
        let serial = request.parameters["serial"]
        guard let events = context.eventStore else { throw HTTPError(501, "this store keeps no pass events") }
        var window: TimeInterval = 300
        if let text = request.queryValue("window") {
            guard let seconds = Int(text), seconds > 0, seconds <= 86_400 * 30 else {
                throw .badRequest("window must be a number of seconds from 1 to 2592000, not \(text)")
            }
            window = TimeInterval(seconds)
        }
        let format = request.queryValue("format") ?? "json"
        guard format == "json" || format == "text" else {
            throw .badRequest("format must be json or text, not \(format)")
        }
        let tracer = PassTracer(
            store: context.store, events: events, templates: context.store as? any TemplateVersionStore)
        let found: PassTrace?
        do {
            found = try tracer.trace(serial: serial, window: window)
        } catch {
            ServiceLog.error("trace \(serial): \(error)")
            throw HTTPError(503, "the store could not be read; try again shortly")
        }
        guard let trace = found else { throw .notFound("no stored pass has serial number \(serial)") }
        if format == "text" { return .text(200, trace.text()) }
        return .json(200, String(decoding: trace.json(), as: UTF8.self))
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
