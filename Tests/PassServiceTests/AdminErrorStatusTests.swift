import Foundation
import Synchronization
import Testing
@testable import PassStore
@testable import PassOperations
@testable import PassService
import PassMintTestSupport
import PassTemplates

/// The admin PATCH answered by the error's own status with the real template validator (`TemplateRenderer`): a
/// change the template refuses is the client's mistake (400 naming the field); a template version the store lacks,
/// a store that fails or cannot be reached while the template is read is the server's fault (500, 503), never a 4xx.
@Suite("Admin PATCH: client mistakes are 4xx naming the field, server faults are 5xx")
struct AdminErrorStatusTests {
    let bearer = ["Authorization": "Bearer \(LiveService.adminToken)"]
    static let loyalty = PackagePaths.template("loyalty")

    /// A service whose validator is a `TemplateRenderer` reading template versions from `templates` (set once the
    /// store exists; a fresh renderer per request, so no cached template hides a store that fails).
    final class Validator: Sendable {
        let templates = Mutex<(any TemplateVersionStore)?>(nil)

        var validate: RecordValidator {
            { pass, change in
                let renderer = TemplateRenderer(
                    identity: DevIdentity.identity, templates: self.templates.withLock { $0 })
                return try renderer.validate(pass, change: change)
            }
        }
    }

    /// A running service with the loyalty template's version stored and pass `S1` naming it.
    func service() throws -> (LiveService, Validator, TemplateIssuance) {
        let validator = Validator()
        let live = try LiveService(recordValidator: validator.validate)
        validator.templates.withLock { $0 = live.store }
        let issuance = try TemplateIssuance.prepare(store: live.store, templatePath: Self.loyalty, name: nil)
        try live.store.insertPasses([Self.pass("S1", template: issuance.reference.description)])
        return (live, validator, issuance)
    }

    static func pass(_ serial: String, template: String) -> StoredPass {
        StoredPass(
            serialNumber: serial, passTypeIdentifier: DevIdentity.passTypeIdentifier, templatePath: template,
            record: ["tier": "Silver", "points": "10"],
            authenticationToken: "token-\(serial)-0123456789abcdef0123456789abcdef")
    }

    static func message(_ response: CurlResponse) -> String {
        (response.json?["error"] as? [String: Any])?["message"] as? String ?? response.text
    }

    @Test(
        "a field the template refuses is a 400 that names it",
        arguments: [
            (#"{"nosuchfield": "x"}"#, "'nosuchfield' is not a field of template"),
            (#"{"serialNumber": "X2"}"#, "'serialNumber' cannot be changed"),
            (#"{"points": "many"}"#, "points"),
            (#"{"points": {"add": "x"}}"#, "points"),
        ])
    func clientMistake(body: String, named: String) throws {
        let (live, _, _) = try service()
        let refused = try live.call("PATCH", "/admin/v1/passes/S1", headers: bearer, body: Array(body.utf8))
        #expect(refused.status == 400, "\(refused.status) \(refused.text)")
        #expect(Self.message(refused).contains(named), "\(Self.message(refused))")
        #expect(try live.store.pass(serial: "S1")?.record["points"] == "10")
        let accepted = try live.call(
            "PATCH", "/admin/v1/passes/S1", headers: bearer, body: Array(#"{"points": 12}"#.utf8))
        #expect(accepted.status == 200, "\(accepted.status) \(accepted.text)")
    }

    @Test("a pass naming a template version the store lacks is a 500, not the client's mistake")
    func templateVersionMissing() throws {
        let (live, _, _) = try service()
        let missing = "passmint-template:loyalty@" + String(repeating: "cd", count: 32)
        try live.store.insertPasses([Self.pass("M1", template: missing)])
        let answer = try live.call("PATCH", "/admin/v1/passes/M1", headers: bearer, body: Array(#"{"points": 1}"#.utf8))
        #expect(answer.status == 500, "\(answer.status) \(answer.text)")
        #expect(Self.message(answer).contains("template cannot be loaded"))
        #expect(try live.store.pass(serial: "M1")?.record["points"] == "10")
    }

    @Test("a store whose template tables fail mid-request (dropped under the service) is a 500")
    func storeUnreadableMidRequest() throws {
        let (live, _, _) = try service()
        // The pass row still reads; reading its template version then fails inside the store.
        let dropped = try CLI.run("sqlite3", [live.store.path, "DROP TABLE template_files"])
        try #require(dropped.status == 0, "\(dropped.stderr)")
        let answer = try live.call("PATCH", "/admin/v1/passes/S1", headers: bearer, body: Array(#"{"points": 1}"#.utf8))
        #expect(answer.status == 500, "\(answer.status) \(answer.text)")
        #expect(Self.message(answer).contains("storage error"))
        #expect(try live.store.pass(serial: "S1")?.record["points"] == "10")
    }

    @Test(
        "a PostgreSQL template store that stops taking connections mid-request is a 503 with Retry-After",
        .enabled(if: TestPostgres.url != nil, Comment(rawValue: TestPostgres.skipReason)))
    func storeUnavailableMidRequest() throws {
        let (live, validator, issuance) = try service()
        let base = try #require(TestPostgres.url)
        let database = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try TestPostgres.psql(base, "CREATE DATABASE \(database)")
        defer { _ = try? TestPostgres.psql(base, "DROP DATABASE IF EXISTS \(database) WITH (FORCE)") }
        let templates = try PostgresStore(
            url: try PostgresURL(try TestPostgres.url(schema: "public", database: database)))
        let version = try #require(try live.store.templateVersion(digest: issuance.reference.digest))
        _ = try templates.storeTemplateVersion(version)
        validator.templates.withLock { $0 = templates }
        let before = try live.call(
            "PATCH", "/admin/v1/passes/S1", headers: bearer, body: Array(#"{"points": 11}"#.utf8))
        #expect(before.status == 200, "\(before.status) \(before.text)")

        // The database stops taking connections and its open ones end: the next read finds no server.
        try TestPostgres.psql(base, "ALTER DATABASE \(database) ALLOW_CONNECTIONS false")
        try TestPostgres.psql(
            base, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database)'")
        let answer = try live.call("PATCH", "/admin/v1/passes/S1", headers: bearer, body: Array(#"{"points": 1}"#.utf8))
        #expect(answer.status == 503, "\(answer.status) \(answer.text)")
        #expect(answer.header("Retry-After") == String(HandlerContext.retryAfterSeconds))
        #expect(try live.store.pass(serial: "S1")?.record["points"] == "11")
    }
}
