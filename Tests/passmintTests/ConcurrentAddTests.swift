import Foundation
import PassMintTestSupport
import Synchronization
import Testing

/// Points added from many places at once: `passmint update --add` processes and admin PATCH requests with
/// `{"add": 1}` against one running `serve`, on SQLite and on PostgreSQL. The store's value is read back with
/// sqlite3 / psql, the pushes with the APNs stand-in.
@Suite("update --add: concurrent additions never lose one (end to end)", .serialized)
struct ConcurrentAddTests {
    static let admin = String(repeating: "c4", count: 24)
    static let changes = 200
    static let serial = "ADD-1"

    @Test(
        "SQLite: 200 concurrent additions of 1 (CLI and admin API mixed) give start + 200, each change covers every device once; --set points=+10 exits 1 and changes nothing",
        .enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing),
        .timeLimit(.minutes(5)))
    func sqlite() throws {
        try Self.run(postgres: nil)
    }

    @Test(
        "PostgreSQL: 200 concurrent additions of 1 (CLI and admin API mixed) give start + 200, each change covers every device once; --set points=+10 exits 1 and changes nothing",
        .enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing),
        .enabled(if: TestPostgres.url != nil, Comment(rawValue: TestPostgres.skipReason)),
        .timeLimit(.minutes(5)))
    func postgres() throws {
        try Self.run(postgres: try TestPostgres.freshSchema())
    }

    /// The stored record of the pass and its tag, read with sqlite3 or psql.
    static func stored(_ f: ServeFixture) throws -> (record: [String: String], tag: Int) {
        let sql = "SELECT record || '|' || tag FROM passes WHERE serial = '\(serial)'"
        let text = try f.postgres.map { try TestPostgres.psql($0, sql) } ?? ServeTools.sqlite(f.db, sql)
        let parts = text.split(separator: "|")
        let record = try #require(
            try JSONSerialization.jsonObject(with: Data(parts[0].utf8)) as? [String: String], "\(text)")
        return (record, Int(parts[1]) ?? -1)
    }

    /// One change as its caller saw it: succeeded, tag, rows queued, devices already covered by a waiting push.
    struct Change: Sendable {
        var succeeded: Bool
        var tag: Int?
        var queued = 0
        var pending = 0
        var detail: String
    }

    static func run(postgres: String?) throws {
        let f = try ServeFixture(
            python: TestTools.pythonWithH2, environment: ["PASSMINT_ADMIN_TOKEN": admin], postgres: postgres)
        defer { f.stop() }
        let pass = f.tmp.path("add.pkpass")
        let issued = try CLI.passmint(
            [
                "generate", "--template", PackagePaths.template("loyalty"), "--serial", serial, "--set",
                "points=1000", "--web-service-url", f.base + "/", "--out", pass,
            ] + f.storeArguments + DevIdentity.signingArgs)
        try #require(issued.status == 0, "\(issued.stderr)")
        let token = try #require(try ServeTools.passJSON(pass)["authenticationToken"] as? String)
        for device in 0..<2 {
            let reply = try f.register(
                device: "adder\(device)", serial: serial, token: token, pushToken: pushToken("ad", device))
            try #require(reply.status == 201, "\(reply.text)")
        }
        let start = try stored(f)
        #expect(start.record["points"] == "1000")

        // "+10" reads as "add" but would set: refused, naming both ways, and nothing is stored.
        let plus = try f.update(serial, ["points=+10"])
        #expect(plus.status == 1, "\(plus.stdout) \(plus.stderr)")
        #expect(plus.stderr.contains("--set points=10") && plus.stderr.contains("--add points=10"), "\(plus.stderr)")
        let plusHTTP = try f.http(
            "PATCH", "/admin/v1/passes/\(serial)", headers: ["Authorization": "Bearer \(admin)"],
            body: #"{"points": "+10"}"#)
        #expect(plusHTTP.status == 400)
        #expect(plusHTTP.text.contains(#"{\"points\": {\"add\": 10}}"#), "\(plusHTTP.text)")
        let afterPlus = try stored(f)
        #expect(afterPlus.record == start.record && afterPlus.tag == start.tag)

        // 200 changes at once: even ones are `update --add` processes, odd ones admin PATCH requests.
        let target = Target(base: f.base, storeArguments: f.storeArguments)
        let results = Mutex<[Change]>([])
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 24
        for i in 0..<changes {
            queue.addOperation {
                let change: Change
                if i % 2 == 0 {
                    change = Self.cli(target)
                } else {
                    change = Self.admin(target)
                }
                results.withLock { $0.append(change) }
            }
        }
        queue.waitUntilAllOperationsAreFinished()
        let done = results.withLock { $0 }
        #expect(done.count == changes)
        let failed = done.filter { !$0.succeeded }
        #expect(failed.isEmpty, "\(failed.count) failed, e.g. \(failed.first?.detail ?? "")")

        let end = try stored(f)
        #expect(end.record["points"] == String(1000 + changes), "points \(end.record["points"] ?? "nil")")
        // Each change is its own version: 200 distinct tags, all after the start.
        let tags = Set(done.compactMap(\.tag))
        #expect(tags.count == changes && tags.allSatisfy { $0 > start.tag } && tags.max() == end.tag)
        // Each change reaches both devices exactly once: a new outbox row, or a push already waiting for it.
        for change in done where change.succeeded {
            #expect(change.queued + change.pending == 2, "\(change.detail)")
        }
        // Every queued push is delivered once (the stand-in saw as many pushes as rows were queued), both devices.
        let queuedTotal = done.reduce(0) { $0 + $1.queued }
        let drained = try waitUntil(timeout: 60) {
            let outbox = try f.count("push_outbox")
            return try outbox == 0 && f.apnsRequests().count >= queuedTotal
        }
        let outboxLeft = try f.count("push_outbox"), pushesSeen = try f.apnsRequests().count
        #expect(drained, "outbox \(outboxLeft), pushes \(pushesSeen) of \(queuedTotal)")
        #expect(try f.apnsRequests().count == queuedTotal)
        #expect(try f.pushedTokens() == [pushToken("ad", 0), pushToken("ad", 1)])
    }

    /// What the concurrent callers need of the fixture.
    struct Target: Sendable {
        let base: String
        let storeArguments: [String]
    }

    /// `passmint update ADD-1 --add points=1` against the running service's store.
    static func cli(_ target: Target) -> Change {
        guard
            let result = try? CLI.passmint(
                ["update", serial, "--add", "points=1"] + target.storeArguments + DevIdentity.signingArgs)
        else { return Change(succeeded: false, detail: "could not run passmint") }
        let text = result.stdout
        guard result.status == 0, let line = text.split(separator: "\n").first(where: { $0.hasPrefix("updated ") })
        else { return Change(succeeded: false, detail: "exit \(result.status): \(text) \(result.stderr)") }
        // "updated ADD-1: tag N, K push(es) queued[; P device(s) already have a push waiting, …]"
        let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard numbers.count >= 3 else { return Change(succeeded: false, detail: String(line)) }
        return Change(
            succeeded: true, tag: numbers[1], queued: numbers[2], pending: numbers.count > 3 ? numbers[3] : 0,
            detail: String(line))
    }

    /// `PATCH /admin/v1/passes/ADD-1` with `{"points": {"add": 1}}`, sent with curl.
    static func admin(_ target: Target) -> Change {
        guard
            let result = try? CLI.run(
                "curl",
                [
                    "-s", "-S", "--max-time", "60", "-X", "PATCH", "-H", "Authorization: Bearer \(admin)", "-H",
                    "Content-Type: application/json", "--data-binary", #"{"points": {"add": 1}}"#, "-w",
                    "\n%{http_code}", target.base + "/admin/v1/passes/\(serial)",
                ]),
            result.status == 0, result.stdout.hasSuffix("\n200"),
            let body = result.stdout.split(separator: "\n").first,
            let json = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        else { return Change(succeeded: false, detail: "PATCH failed") }
        return Change(
            succeeded: json["changed"] as? Bool == true, tag: (json["tag"] as? String).flatMap { Int($0) },
            queued: json["pushesQueued"] as? Int ?? -1, pending: json["pushesAlreadyPending"] as? Int ?? -1,
            detail: String(body))
    }
}
