import Foundation
import Testing

/// `passmint templates publish` end to end: passes of two templates issued with `batch` into a store, phones
/// registered with a running `serve`, a changed background colour published for one template.
@Suite("templates publish (end to end)", .serialized)
struct TemplatesPublishTests {
    static let oldColour = "rgb(34, 16, 58)"
    static let newColour = "rgb(200, 10, 10)"

    /// One issued pass and the device registered for it.
    struct Issued {
        let serial: String
        let token: String
        let pushToken: String
    }

    /// Copies a shipped template into the fixture's folder (the test edits the copy).
    static func copyTemplate(_ name: String, _ f: ServeFixture) throws -> String {
        let path = f.tmp.path(name)
        try FileManager.default.copyItem(
            atPath: PackagePaths.template(name), toPath: path)
        return path
    }

    /// `batch --db/--postgres` of `serials` from `template`; each pass gets one registered device.
    static func issue(_ template: String, serials: [String], tokenPrefix: String, _ f: ServeFixture) throws
        -> [Issued]
    {
        let csv = f.tmp.path(UUID().uuidString + ".csv")
        try ("serialNumber\n" + serials.joined(separator: "\n") + "\n").write(
            toFile: csv, atomically: true, encoding: .utf8)
        let out = f.tmp.path("out-" + UUID().uuidString)
        let batch = try CLI.passmint(
            ["batch", "--template", template, "--csv", csv, "--out", out, "--web-service-url", f.base + "/"]
                + f.storeArguments + DevIdentity.signingArgs)
        try #require(batch.status == 0, "batch: \(batch.stderr)")
        return try serials.enumerated().map { index, serial in
            let token = try #require(ServeTools.passJSON(out + "/\(serial).pkpass")["authenticationToken"] as? String)
            let pushToken = pushToken(tokenPrefix, index)
            let reply = try f.register(device: "dev-\(serial)", serial: serial, token: token, pushToken: pushToken)
            #expect(reply.status == 201, "register \(serial): \(reply.status) \(reply.text)")
            return Issued(serial: serial, token: token, pushToken: pushToken)
        }
    }

    /// A downloaded pass: its background colour (unzip -p pass.json) and its Last-Modified.
    static func download(_ pass: Issued, _ f: ServeFixture) throws -> (colour: String?, lastModified: String) {
        let reply = try f.download(serial: pass.serial, token: pass.token)
        try #require(reply.status == 200, "download \(pass.serial): \(reply.status) \(reply.text)")
        let file = f.tmp.path("\(pass.serial)-\(UUID().uuidString).pkpass")
        try reply.body.write(to: URL(fileURLWithPath: file))
        #expect(try ServeTools.opensslVerifies(file, tmp: f.tmp), "signature of \(pass.serial)")
        return (
            try ServeTools.passJSON(file)["backgroundColor"] as? String, try #require(reply.headers["last-modified"])
        )
    }

    /// serial → tag as the store holds them, read with sqlite3 or psql.
    static func tags(_ f: ServeFixture) throws -> String {
        let sql = "select serial || ':' || tag from passes order by serial"
        if let postgres = f.postgres { return try TestPostgres.psql(postgres, sql) }
        return try ServeTools.sqlite(f.db, sql)
    }

    static func publish(_ f: ServeFixture, _ template: String, _ extra: [String] = []) throws -> CLI.Result {
        try CLI.passmint(
            ["templates", "publish", "event", template] + extra + f.storeArguments + DevIdentity.signingArgs)
    }

    func run(postgres: String?) throws {
        let f = try ServeFixture(python: TestTools.pythonWithH2, postgres: postgres)
        defer { f.stop() }
        let event = try Self.copyTemplate("event", f)
        let loyalty = try Self.copyTemplate("loyalty", f)
        let events = try Self.issue(event, serials: ["EV-1", "EV-2", "EV-3"], tokenPrefix: "e0", f)
        let members = try Self.issue(loyalty, serials: ["LO-1", "LO-2"], tokenPrefix: "10", f)
        #expect(try f.count("passes", where: "template like 'passmint-template:event@%'") == 3)
        #expect(try f.count("passes", where: "template like 'passmint-template:loyalty@%'") == 2)
        let before = try Dictionary(
            uniqueKeysWithValues: (events + members).map { ($0.serial, try Self.download($0, f)) })
        for pass in events { #expect(before[pass.serial]?.colour == Self.oldColour) }

        // Editing the folder changes nothing served: same colour, same Last-Modified.
        let passJSON = event + "/pass.json"
        let text = try String(contentsOfFile: passJSON, encoding: .utf8)
        try #require(text.contains(Self.oldColour))
        try text.replacingOccurrences(of: Self.oldColour, with: Self.newColour).write(
            toFile: passJSON, atomically: true, encoding: .utf8)
        for pass in events {
            let now = try Self.download(pass, f)
            #expect(now.colour == Self.oldColour && now.lastModified == before[pass.serial]?.lastModified)
        }

        // --dry-run shows the change and its reach, and changes nothing.
        let tagsBefore = try Self.tags(f)
        let dry = try Self.publish(f, event, ["--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("changed  pass.json"), "\(dry.stdout)")
        #expect(dry.stdout.contains("backgroundColor: \(Self.oldColour) → \(Self.newColour)"), "\(dry.stdout)")
        #expect(dry.stdout.contains("reaches 3 pass(es) with 3 device registration(s)"), "\(dry.stdout)")
        #expect(dry.stdout.contains("dry run: nothing was changed"))
        #expect(try Self.tags(f) == tagsBefore)
        #expect(try f.count("push_outbox") == 0)
        #expect(try f.count("templates") == 2)
        #expect(try f.apnsRequests().isEmpty)

        let published = try Self.publish(f, event, ["--report", f.tmp.path("publish.jsonl")])
        #expect(published.status == 0, "\(published.stderr)")
        #expect(published.stdout.contains("3 passes re-tagged, 3 push(es) queued"), "\(published.stdout)")
        let report = try String(contentsOfFile: f.tmp.path("publish.jsonl"), encoding: .utf8)
        #expect(report.split(separator: "\n").count == 3)

        // Each device of the event passes gets exactly one push; once the outbox is empty nothing more is sent,
        // so the loyalty devices got none.
        let arrived = try waitUntil(timeout: 20) { try f.apnsRequests().count >= 3 }
        try #require(arrived, "pushes: \((try? f.apnsRequests().count) ?? -1); serve: \(f.serve.stderr)")
        #expect(try waitUntil(timeout: 20) { try f.count("push_outbox") == 0 }, "outbox drained")
        let paths = try f.apnsRequests().compactMap { $0["path"] as? String }
        #expect(paths.sorted() == events.map { "/3/device/\($0.pushToken)" }.sorted())

        for pass in events {
            let now = try Self.download(pass, f)
            #expect(now.colour == Self.newColour, "\(pass.serial)")
            #expect(now.lastModified != before[pass.serial]?.lastModified, "\(pass.serial) Last-Modified")
        }
        for pass in members {
            #expect(try Self.download(pass, f).lastModified == before[pass.serial]?.lastModified, "\(pass.serial)")
        }
        let tagsAfter = try Self.tags(f).split(separator: "\n")
        let oldTags = Set(tagsBefore.split(separator: "\n"))
        #expect(tagsAfter.filter { $0.hasPrefix("LO-") }.allSatisfy(oldTags.contains), "loyalty tags unchanged")
        #expect(tagsAfter.filter { $0.hasPrefix("EV-") }.allSatisfy { !oldTags.contains($0) }, "event tags new")

        // Publishing the same folder again is a no-op.
        let again = try Self.publish(f, event)
        #expect(again.status == 0 && again.stdout.contains("nothing to change"), "\(again.stdout) \(again.stderr)")
        let list = try CLI.passmint(["templates", "list"] + f.storeArguments)
        #expect(list.status == 0)
        #expect(list.stdout.contains("event\t") && list.stdout.contains("\t3/3\t"), "\(list.stdout)")
    }

    @Test(
        "publishing a changed background colour: every pass of the template downloads with it and a new Last-Modified, one push per device, other templates untouched",
        .enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing))
    func publishSQLite() throws {
        try run(postgres: nil)
    }

    @Test(
        "the same on PostgreSQL",
        .enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing),
        .enabled(if: TestPostgres.url != nil, Comment(rawValue: TestPostgres.skipReason)))
    func publishPostgres() throws {
        try run(postgres: try TestPostgres.freshSchema())
    }

    @Test("a broken template is refused before anything changes")
    func brokenTemplateRefused() throws {
        let f = try ServeFixture(python: nil)
        defer { f.stop() }
        let event = try Self.copyTemplate("event", f)
        _ = try Self.issue(event, serials: ["EV-1"], tokenPrefix: "e0", f)
        let tagsBefore = try Self.tags(f)
        // A new required field without a default: the stored pass does not resolve against it.
        let manifest = event + "/template.json"
        var json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifest))) as? [String: Any])
        var fields = json["fields"] as? [[String: Any]] ?? []
        fields.append(["name": "wristband", "type": "string", "required": true])
        json["fields"] = fields
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: manifest))
        let refused = try Self.publish(f, event)
        #expect(refused.status == 1, "\(refused.stdout) \(refused.stderr)")
        #expect(refused.stderr.contains("pass EV-1") && refused.stderr.contains("wristband"), "\(refused.stderr)")
        #expect(refused.stderr.contains("nothing was changed"))
        #expect(try Self.tags(f) == tagsBefore)
        #expect(try f.count("template_versions") == 1)
        // Invalid JSON names the file and line.
        try Data("{\"formatVersion\": 1,\n".utf8).write(to: URL(fileURLWithPath: event + "/pass.json"))
        let invalid = try Self.publish(f, event)
        #expect(invalid.status == 1 && invalid.stderr.contains(event + "/pass.json:"), "\(invalid.stderr)")
        // A name nobody issued from is most likely a typo.
        let typo = try CLI.passmint(
            ["templates", "publish", "evnt", PackagePaths.template("event")]
                + f.storeArguments + DevIdentity.signingArgs)
        #expect(typo.status == 1 && typo.stderr.contains("names: event"), "\(typo.stderr)")
    }

    @Test("Ctrl-C stops a publish after a committed chunk (exit 130); a rerun needs --resume and moves only the rest")
    func interruptAndResume() throws {
        let tmp = try TempDir()
        let db = tmp.path("store.db")
        let event = tmp.path("event")
        try FileManager.default.copyItem(atPath: PackagePaths.template("event"), toPath: event)
        try "serialNumber\nPUB-000000\n".write(toFile: tmp.path("one.csv"), atomically: true, encoding: .utf8)
        let batch = try CLI.passmint(
            [
                "batch", "--template", event, "--csv", tmp.path("one.csv"), "--out", tmp.path("out"), "--db", db,
                "--web-service-url", "https://passes.example.com",
            ] + DevIdentity.signingArgs)
        try #require(batch.status == 0, "\(batch.stderr)")
        // 10,000 copies of the issued pass, each with a device: enough chunks of 500 to interrupt between two.
        let passes = 10_000
        _ = try ServeTools.sqlite(
            db,
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(passes - 1))
            INSERT INTO passes (serial, pass_type, template, record, auth_token, tag, modified_at, voided,
                web_service_url, compatible_pass)
            SELECT printf('PUB-%06d', i), pass_type, template, record, printf('%032x', i), tag + i, modified_at, 0,
                web_service_url, 0 FROM passes, n WHERE serial = 'PUB-000000';
            UPDATE meta SET value = (SELECT max(tag) FROM passes) WHERE key = 'tag';
            INSERT INTO devices (device_library_id, push_token, updated_at)
                SELECT 'dev-' || serial, printf('%064x', rowid), 0 FROM passes;
            INSERT INTO registrations (device, pass_type, serial, created_at)
                SELECT 'dev-' || serial, pass_type, serial, 0 FROM passes;
            """)
        let passJSON = event + "/pass.json"
        try String(contentsOfFile: passJSON, encoding: .utf8).replacingOccurrences(
            of: Self.oldColour, with: Self.newColour
        ).write(toFile: passJSON, atomically: true, encoding: .utf8)
        let arguments = ["templates", "publish", "event", event, "--db", db] + DevIdentity.signingArgs
        let publish = try ManagedProcess(
            "templates publish", CLI.binary, arguments, stderrPath: tmp.path("publish.err"),
            stdoutPath: tmp.path("publish.out"))
        defer { publish.stop(grace: 0) }
        // Interrupted once the first chunk has committed (its progress row is written in that transaction).
        let started = try waitUntil(timeout: 60) {
            try ServeTools.sqlite(db, "SELECT count(*) FROM bulk_progress") == "1" || !publish.isRunning
        }
        try #require(started && publish.isRunning, "publish: \(publish.stderr)")
        kill(publish.process.processIdentifier, SIGINT)
        let status = publish.waitForExit(timeout: 60)
        try #require(status == 130, "exit \(status.map(String.init) ?? "none"): \(publish.stderr)")
        #expect(publish.stderr.contains("--resume"), "\(publish.stderr)")
        // The version became current before the first chunk; the passes on it are the ones moved so far.
        let current = "(SELECT 'passmint-template:event@' || digest FROM templates WHERE name = 'event')"
        let moved = try #require(
            Int(try ServeTools.sqlite(db, "SELECT count(*) FROM passes WHERE template = \(current)")))
        #expect(moved > 0 && moved < passes, "moved \(moved)")
        #expect(try ServeTools.sqlite(db, "SELECT count(*) FROM push_outbox") == String(moved))

        let refused = try CLI.passmint(arguments)
        #expect(refused.status == 1 && refused.stderr.contains("--resume"), "\(refused.stdout) \(refused.stderr)")
        let resumed = try CLI.passmint(arguments + ["--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains("\(passes - moved) passes re-tagged"), "\(resumed.stdout)")
        // Every pass on the new version, every device queued exactly once across both runs.
        let digest = try ServeTools.sqlite(db, "SELECT digest FROM templates WHERE name = 'event'")
        #expect(
            try ServeTools.sqlite(
                db, "SELECT count(*) FROM passes WHERE template = 'passmint-template:event@\(digest)'")
                == String(passes))
        #expect(
            try ServeTools.sqlite(db, "SELECT count(*) || ' ' || count(DISTINCT push_token) FROM push_outbox")
                == "\(passes) \(passes)")
    }
}
