import Dispatch
import Foundation
import Testing
@testable import PassStore
@testable import PassHTTP
@testable import PassOperations
@testable import PassService
import PassMintTestSupport
import PassTemplates

/// Merges changes into the record like the service's default validator; `validate` waits for `gate` once, so a
/// job can be held running while a test looks at the queue.
final class GatedChecker: BulkRecordChecker {
    let gate = DispatchSemaphore(value: 0)
    let entered = DispatchSemaphore(value: 0)

    func validate(_ pass: StoredPass, change: RecordChange) throws(OperationError) -> [String: String] {
        entered.signal()
        gate.wait()
        gate.signal()  // later rows pass straight through
        return pass.record.merging(change.values) { $1 }
    }

    func renderKey(_ pass: StoredPass) -> String { pass.templatePath }
    func renderCheck(_ pass: StoredPass) throws(OperationError) {}
}

@Suite("Admin bulk-update routes in process")
struct UpdateJobRoutesTests {
    let bearer = ["Authorization": "Bearer \(LiveService.adminToken)"]

    func request(_ method: HTTPMethod, _ path: String, headers: [String: String], body: String = "") -> Request {
        var fields = HTTPHeaders()
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { fields.add(name, value) }
        return Request(method: method, path: path, headers: fields, body: Array(body.utf8))
    }

    @Test("202 with Location; a full queue is 503 with Retry-After; 401, 415, 400 and 404 as documented")
    func queueAndErrors() throws {
        let f = try StoreFixture()
        try f.store.insertPasses([samplePass("A"), samplePass("B")])
        let checker = GatedChecker()
        let jobs = UpdateJobRunner(store: f.store, checker: checker, maxWaiting: 1)
        let service = try WalletService(
            configuration: .init(), store: f.store, renderer: TestRenderer(),
            environment: ["PASSMINT_ADMIN_TOKEN": LiveService.adminToken], updateJobs: jobs)
        let csv = bearer.merging(["Content-Type": "text/csv; charset=utf-8"]) { $1 }
        let body = "serialNumber,tier\nA,Gold\nB,Silver\n"

        #expect(
            service.respond(to: request(.post, "/admin/v1/updates", headers: ["Content-Type": "text/csv"], body: body))
                .status == 401)
        #expect(
            service.respond(
                to: request(
                    .post, "/admin/v1/updates", headers: bearer.merging(["Content-Type": "application/json"]) { $1 },
                    body: body)
            ).status == 415)
        #expect(service.respond(to: request(.post, "/admin/v1/updates", headers: csv)).status == 400)

        let accepted = service.respond(to: request(.post, "/admin/v1/updates", headers: csv, body: body))
        #expect(accepted.status == 202)
        let location = try #require(accepted.headers["Location"])
        #expect(location.hasPrefix("/admin/v1/updates/"))
        let id = String(location.dropFirst("/admin/v1/updates/".count))
        #expect(id.count == 32 && id.allSatisfy(\.isHexDigit))
        checker.entered.wait()
        // The job is running and holds the only place: the next one is refused, not queued without bound.
        let busy = service.respond(to: request(.post, "/admin/v1/updates", headers: csv, body: body))
        #expect(busy.status == 503)
        #expect(busy.headers["Retry-After"] == "30")
        #expect(try f.store.updateJob(id: id)?.state == .running)
        checker.gate.signal()
        let done = waitUntil { (try? f.store.updateJob(id: id))??.state == .done }
        #expect(done)
        let shown = service.respond(to: request(.get, location, headers: bearer))
        #expect(shown.status == 200)
        let view = try #require(
            try JSONSerialization.jsonObject(with: Data(shown.body.array)) as? [String: Any])
        #expect(
            view["changed"] as? Int == 1 && view["unchanged"] as? Int == 1 && view["rows"] as? Int == 2
                && view["status"] as? String == "done")
        #expect(try f.store.pass(serial: "A")?.record["tier"] == "Gold")
        #expect(service.respond(to: request(.get, "/admin/v1/updates/ffff", headers: bearer)).status == 404)
        #expect(service.respond(to: request(.get, location, headers: [:])).status == 401)
        // Once the job is over, a new one is accepted again (and finds nothing left to change).
        let again = service.respond(to: request(.post, "/admin/v1/updates", headers: csv, body: body))
        #expect(again.status == 202)
        let next = String(try #require(again.headers["Location"]).dropFirst("/admin/v1/updates/".count))
        #expect(waitUntil { (try? f.store.updateJob(id: next))??.state == .done })
        #expect(try f.store.updateJob(id: next)?.unchanged == 2)
    }

    @Test("a body whose header has no serialNumber makes the job failed, with the reason")
    func failedJob() throws {
        let f = try StoreFixture()
        let jobs = UpdateJobRunner(store: f.store, checker: GatedChecker())
        let service = try WalletService(
            configuration: .init(), store: f.store, renderer: TestRenderer(),
            environment: ["PASSMINT_ADMIN_TOKEN": LiveService.adminToken], updateJobs: jobs)
        let accepted = service.respond(
            to: request(
                .post, "/admin/v1/updates", headers: bearer.merging(["Content-Type": "text/csv"]) { $1 },
                body: "tier\nGold\n"))
        let location = try #require(accepted.headers["Location"])
        let id = String(location.dropFirst("/admin/v1/updates/".count))
        #expect(waitUntil { (try? f.store.updateJob(id: id))??.state == .failed })
        #expect(try f.store.updateJob(id: id)?.message?.contains("no serialNumber column") == true)
        // The temporary copy of the body is gone.
        #expect(!FileManager.default.fileExists(atPath: NSTemporaryDirectory() + "passmint-update-\(id).csv"))
    }
}
