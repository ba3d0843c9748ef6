import Foundation
import Synchronization
import Testing
@testable import PassStore
@testable import PassHTTP
@testable import PassPush
@testable import PassService
import PassMintTestSupport

/// A store that records which of its methods were called, forwarding to a real one.
final class RecordingStore: PassStore {
    let base: SQLiteStore
    private let calls = Mutex<[String]>([])
    init(_ base: SQLiteStore) { self.base = base }
    var recorded: [String] { calls.withLock { $0 } }
    private func note(_ name: String) { calls.withLock { $0.append(name) } }

    func insertPasses(_ passes: [StoredPass]) throws { note("insertPasses"); try base.insertPasses(passes) }
    func pass(passType: String, serial: String) throws -> StoredPass? {
        note("pass"); return try base.pass(passType: passType, serial: serial)
    }
    func pass(serial: String) throws -> StoredPass? { note("pass"); return try base.pass(serial: serial) }
    func passVersion(passType: String, serial: String) throws -> PassVersion? {
        note("passVersion"); return try base.passVersion(passType: passType, serial: serial)
    }
    func register(device: String, passType: String, serial: String, pushToken: String, tag: Int64) throws
        -> RegistrationOutcome
    {
        note("register")
        return try base.register(device: device, passType: passType, serial: serial, pushToken: pushToken, tag: tag)
    }
    func unregister(device: String, passType: String, serial: String) throws -> RegistrationInfo? {
        note("unregister"); return try base.unregister(device: device, passType: passType, serial: serial)
    }
    func updatedSerials(device: String, passType: String, since: Int64?) throws -> (
        serials: [String], lastUpdated: Int64
    )? {
        note("updatedSerials"); return try base.updatedSerials(device: device, passType: passType, since: since)
    }
    func updateRecord(serial: String, record: [String: String], images: [String: [UInt8]]?, voided: Bool?) throws
        -> (pass: StoredPass, pushesQueued: Int)
    {
        note("updateRecord");
        return try base.updateRecord(serial: serial, record: record, images: images, voided: voided)
    }
    func modifyPass(serial: String, _ change: (StoredPass) throws -> PassModification) throws
        -> PassModificationOutcome
    {
        note("modifyPass")
        return try base.modifyPass(serial: serial, change)
    }
    func reissuePasses(_ passes: [StoredPass]) throws -> [String: Int] {
        note("reissuePasses")
        return try base.reissuePasses(passes)
    }
    func appendLogs(_ lines: [String], maxStoredBytes: Int) throws -> Bool {
        note("appendLogs"); return try base.appendLogs(lines, maxStoredBytes: maxStoredBytes)
    }
    func recentLogs(limit: Int) throws -> [String] { note("recentLogs"); return try base.recentLogs(limit: limit) }
    func personalizations(serial: String) throws -> [[String: String]] {
        note("personalizations"); return try base.personalizations(serial: serial)
    }
    func enrollment(passType: String, serial: String) throws -> PersonalizationEnrollment? {
        note("enrollment"); return try base.enrollment(passType: passType, serial: serial)
    }
    func storeEnrollment(_ enrollment: PersonalizationEnrollment, maxStoredBytes: Int) throws -> EnrollmentOutcome {
        note("storeEnrollment"); return try base.storeEnrollment(enrollment, maxStoredBytes: maxStoredBytes)
    }
    func unauthenticatedUsage() throws -> [UnauthenticatedKind: UnauthenticatedUsage] {
        note("unauthenticatedUsage"); return try base.unauthenticatedUsage()
    }
    func deleteUnauthenticated(storedBefore cutoff: Date) throws -> [UnauthenticatedKind: Int] {
        note("deleteUnauthenticated"); return try base.deleteUnauthenticated(storedBefore: cutoff)
    }
    func registrationsCount() throws -> Int { note("registrationsCount"); return try base.registrationsCount() }
    func outboxDepth() throws -> Int { note("outboxDepth"); return try base.outboxDepth() }
    func passTypeCounts() throws -> [String: Int] { note("passTypeCounts"); return try base.passTypeCounts() }
    func details(serial: String) throws -> PassDetails? { note("details"); return try base.details(serial: serial) }
    func installDays(_ query: InstallStatsQuery) throws -> [InstallDay] {
        note("installDays"); return try base.installDays(query)
    }
    func installTotals() throws -> [InstallTotals] { note("installTotals"); return try base.installTotals() }
}

/// The hardening cases in process: the router and handlers called directly, the store watched.
@Suite("Hardening: routes in process")
struct HygieneRoutesTests {
    let fixture: StoreFixture
    let store: RecordingStore
    let service: WalletService
    let pass: StoredPass

    init() throws {
        fixture = try StoreFixture()
        try fixture.store.insertPasses([samplePass("S1")])
        pass = try #require(try fixture.store.pass(serial: "S1"))
        store = RecordingStore(fixture.sqlite)
        service = try WalletService(
            configuration: .init(port: 0), store: store, renderer: TestRenderer(),
            environment: [:])
    }

    private func respond(_ method: HTTPMethod, _ path: String, body: [UInt8] = []) -> Response {
        service.respond(
            to: Request(
                method: method, path: path,
                headers: HTTPHeaders([("Authorization", "ApplePass \(pass.authenticationToken)")]),
                body: body))
    }

    @Test("GET …/S1%00 is 400 before any store access; …/S1 is the pass")
    func nulSerial() {
        #expect(respond(.get, "/v1/passes/\(passType)/S1%00").status == 400)
        #expect(respond(.get, "/v1/passes/\(passType)/S1%00junk").status == 400)
        #expect(store.recorded.isEmpty, "\(store.recorded)")
        #expect(respond(.get, "/v1/passes/\(passType)/S1").status == 200)
    }

    @Test(
        "a registration for S1%00, a bad device id or a bad pass type touches no store row",
        arguments: [
            "/v1/devices/d1/registrations/\(passType)/S1%00", "/v1/devices/d%001/registrations/\(passType)/S1",
            "/v1/devices/d1/registrations/not-a-pass-type/S1", "/v1/devices/d1/registrations/\(passType)/S1%2F..",
            "/v1/devices/\(String(repeating: "d", count: 129))/registrations/\(passType)/S1",
        ])
    func badRegistration(path: String) throws {
        let response = respond(.post, path, body: jsonBody(["pushToken": "abcd"]))
        #expect(response.status == 400)
        #expect(String(decoding: response.body.array, as: UTF8.self).hasPrefix(#"{"error":{"message":"#))
        #expect(store.recorded.isEmpty, "\(store.recorded)")
        #expect(try fixture.store.registrationsCount() == 0)
    }

    @Test(
        "the register handler accepts exactly what PushToken accepts, the pusher's rule",
        arguments: [
            ("ab", true), (String(repeating: "a", count: 64), true), (String(repeating: "A", count: 200), true),
            ("abc", false), (String(repeating: "a", count: 202), false), (String(repeating: "a", count: 512), false),
            ("zz", false), ("", false), ("ab cd", false),
        ])
    func pushTokens(token: String, accepted: Bool) {
        #expect(PushToken.isValid(token) == accepted)
        let response = respond(
            .post, "/v1/devices/d1/registrations/\(passType)/S1", body: jsonBody(["pushToken": token]))
        #expect(response.status == (accepted ? 201 : 400), "\(token.count) characters")
        if !accepted {
            #expect(String(decoding: response.body.array, as: UTF8.self).contains(PushToken.rule))
        }
    }

    @Test("a push token interpolated into a message is redacted")
    func redactedDescription() throws {
        let token = try #require(PushToken(String(repeating: "0123456789abcdef", count: 4)))
        #expect("\(token)" == "01234567…")
        #expect(token.hex.count == 64)
    }

    @Test(
        "a blank admin token (only whitespace, or whitespace or control characters inside) is refused naming the variable",
        arguments: [
            String(repeating: " ", count: 32), String(repeating: "\t", count: 40),
            "0123456789abcdef 0123456789abcdef", "0123456789abcdef0123456789abcdef\n",
            "\u{1}123456789abcdef0123456789abcdef",
        ])
    func blankAdminToken(token: String) throws {
        let f = try StoreFixture()
        do {
            _ = try WalletService(
                configuration: .init(adminTokenVariable: "MY_ADMIN"), store: f.store, renderer: TestRenderer(),
                environment: ["MY_ADMIN": token])
            Issue.record("accepted the admin token \(token.debugDescription)")
        } catch let error as ServiceError {
            #expect(error == .blankAdminToken(variable: "MY_ADMIN"))
            #expect(error.description.contains("MY_ADMIN"))
        }
    }

    @Test("an admin token shorter than 32 characters is refused naming the variable, never the token")
    func weakAdminToken() throws {
        let f = try StoreFixture()
        for token in ["0123456789", String(repeating: "x", count: 31)] {
            do {
                _ = try WalletService(
                    configuration: .init(adminTokenVariable: "MY_ADMIN"), store: f.store,
                    renderer: TestRenderer(), environment: ["MY_ADMIN": token])
                Issue.record("accepted a \(token.count)-character admin token")
            } catch let error as ServiceError {
                #expect(error == .weakAdminToken(variable: "MY_ADMIN", minimumLength: 32))
                #expect(error.description.contains("MY_ADMIN"))
                #expect(!error.description.contains(token))
            }
        }
        _ = try WalletService(
            configuration: .init(), store: f.store, renderer: TestRenderer(),
            environment: ["PASSMINT_ADMIN_TOKEN": String(repeating: "x", count: 32)])
        _ = try WalletService(
            configuration: .init(), store: f.store, renderer: TestRenderer(),
            environment: ["PASSMINT_ADMIN_TOKEN": ""])
    }
}
