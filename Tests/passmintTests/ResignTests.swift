import Foundation
import Testing

/// `passmint resign` end to end: a store with passes and registered devices, a second development identity of the
/// same pass type and team (`passmint certs dev`), the real binary, and the results read with openssl, curl,
/// sqlite3/psql and the APNs stand-in's log.
@Suite("resign: renewed certificate (end to end)", .serialized)
struct ResignTests {
    /// A second identity made by the binary, in `folder`; its certificate's serial.
    static func secondIdentity(_ folder: String, days: Int? = nil, team: String? = nil) throws -> (
        args: [String], serial: String
    ) {
        var args = ["certs", "dev", "--dir", folder]
        if let days { args += ["--days", String(days)] }
        if let team { args += ["--team-id", team] }
        let made = try CLI.passmint(args)
        guard made.status == 0 else { throw ServeFailure("certs dev: \(made.stderr)") }
        return (
            ["--cert", folder + "/pass-cert.pem", "--key", folder + "/pass-key.pem", "--wwdr", folder + "/wwdr.pem"],
            try ServeTools.certificateSerial(folder + "/pass-cert.pem")
        )
    }

    @Test(
        "resign with a second identity: every stored pass then downloads signed by it, every registered device got one push",
        .enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing))
    func resignSQLite() throws {
        try Self.renewal(postgres: nil)
    }

    @Test(
        "resign on PostgreSQL: the same, with the store in PostgreSQL",
        .enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing),
        .enabled(if: TestPostgres.url != nil, Comment(rawValue: TestPostgres.skipReason)))
    func resignPostgres() throws {
        try Self.renewal(postgres: try TestPostgres.freshSchema())
    }

    static func renewal(postgres: String?) throws {
        let keys = try TempDir()
        let renewed = try secondIdentity(keys.path("B"))
        let oldSerial = try ServeTools.certificateSerial(DevIdentity.directory + "/pass-cert.pem")
        #expect(renewed.serial != oldSerial)
        let f = try ServeFixture(
            python: TestTools.pythonWithH2, postgres: postgres,
            clientCAs: [keys.path("B/wwdr.pem"), keys.path("B/root-ca.pem")])
        // Four passes; devices 0 and 1 hold S1, device 2 holds S2 and S3 (one push wakes it for both), S4 none.
        var tokens: [String: String] = [:]
        for serial in ["S1", "S2", "S3", "S4"] { tokens[serial] = try f.generate(serial: serial).token }
        let holdings = [(0, "S1"), (1, "S1"), (2, "S2"), (2, "S3")]
        for (device, serial) in holdings {
            let reply = try f.register(
                device: "device\(device)", serial: serial, token: tokens[serial]!,
                pushToken: pushToken("beef", device))
            #expect(reply.status == 201)
        }
        let tagsBefore = try f.count("passes", where: "tag > 0")
        #expect(tagsBefore == 4)

        // serve picks up the new identity at start; resign runs beside it, as `update` does.
        try f.restart(signingArguments: renewed.args)
        let report = f.tmp.path("resign.jsonl")
        let resign = try CLI.passmint(
            ["resign"] + f.storeArguments + renewed.args
                + ["--previous-cert", DevIdentity.directory + "/pass-cert.pem", "--report", report])
        #expect(resign.status == 0, "\(resign.stderr)")
        #expect(resign.stderr.contains("resign: 4 passes, 4 re-signed"), "\(resign.stderr)")
        #expect(resign.stderr.contains("serial \(renewed.serial)"), "\(resign.stderr)")

        // Each registered device gets exactly one push: wait for all three, then for the outbox to drain (nothing
        // is left that could still be sent), and count.
        let expected = Set((0..<3).map { pushToken("beef", $0) })
        let arrived = try waitUntil(timeout: 30) { try f.pushedTokens() == expected }
        try #require(arrived, "pushed: \((try? f.pushedTokens()) ?? []); serve: \(f.serve.stderr)")
        #expect(try waitUntil(timeout: 20) { try f.count("push_outbox") == 0 })
        let paths = try f.apnsRequests().compactMap { $0["path"] as? String }
        #expect(paths.count == 3, "\(paths)")
        #expect(Set(paths).count == 3, "a device was pushed twice: \(paths)")

        // Every stored pass downloads signed by the new certificate (and verifies against the new root only).
        for serial in ["S1", "S2", "S3", "S4"] {
            let reply = try f.download(serial: serial, token: tokens[serial]!)
            #expect(reply.status == 200)
            let file = f.tmp.path("downloaded-\(serial).pkpass")
            try reply.body.write(to: URL(fileURLWithPath: file))
            let signer = try ServeTools.signerSerial(file, rootCA: keys.path("B/root-ca.pem"), tmp: f.tmp)
            #expect(signer == renewed.serial, "\(serial) is signed by \(signer ?? "nothing that verifies")")
            #expect(!(try ServeTools.opensslVerifies(file, tmp: f.tmp)), "\(serial) still verifies with the old root")
        }

        let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
        #expect(lines.compactMap { $0["serialNumber"] as? String } == ["S1", "S2", "S3", "S4"])
        #expect(lines.allSatisfy { $0["status"] as? String == "resigned" && $0["resumed"] == nil })

        // The same certificate again: the job is recorded, so nothing is pushed twice by mistake.
        let again = try CLI.passmint(["resign"] + f.storeArguments + renewed.args)
        #expect(again.status == 1)
        #expect(again.stderr.contains("already re-signed all 4 passes"), "\(again.stderr)")
    }

    @Test("resign refuses a certificate of another team or that misses a stored pass type, and changes nothing")
    func refusals() throws {
        let tmp = try TempDir()
        let db = tmp.path("store.db")
        let generated = try CLI.passmint(
            [
                "generate", "--template", ServeTools.status, "--db", db, "--web-service-url", "https://x.example/",
                "--serial", "S1", "--out", tmp.path("S1.pkpass"),
            ] + DevIdentity.signingArgs)
        try #require(generated.status == 0, "\(generated.stderr)")
        let tagBefore = try ServeTools.sqlite(db, "SELECT tag FROM passes")

        let otherTeam = try Self.secondIdentity(tmp.path("team"), team: "OTHERTEAM9")
        let team = try CLI.passmint(
            ["resign", "--db", db, "--previous-cert", DevIdentity.directory + "/pass-cert.pem"] + otherTeam.args)
        #expect(team.status == 1)
        #expect(
            team.stderr.contains("OTHERTEAM9") && team.stderr.contains(DevIdentity.teamIdentifier), "\(team.stderr)")

        let otherType = tmp.path("type")
        let made = try CLI.passmint(["certs", "dev", "--dir", otherType, "--pass-type-id", "pass.com.example.other"])
        try #require(made.status == 0)
        let type = try CLI.passmint(
            [
                "resign", "--db", db, "--cert", otherType + "/pass-cert.pem", "--key", otherType + "/pass-key.pem",
                "--wwdr", otherType + "/wwdr.pem",
            ])
        #expect(type.status == 1)
        #expect(type.stderr.contains(DevIdentity.passTypeIdentifier), "\(type.stderr)")
        #expect(type.stderr.contains("pass.com.example.other"), "\(type.stderr)")

        let mismatch = try CLI.passmint(
            [
                "resign", "--db", db, "--cert", otherType + "/pass-cert.pem", "--key",
                DevIdentity.directory
                    + "/pass-key.pem", "--wwdr", otherType + "/wwdr.pem",
            ])
        #expect(mismatch.status == 3)
        #expect(mismatch.stderr.contains("pass-key.pem"), "\(mismatch.stderr)")

        #expect(try ServeTools.sqlite(db, "SELECT tag FROM passes") == tagBefore)
        #expect(try ServeTools.sqlite(db, "SELECT count(*) FROM push_outbox") == "0")
        #expect(try ServeTools.sqlite(db, "SELECT count(*) FROM bulk_progress") == "0")
    }

    @Test(
        "resign killed halfway (a chunk blocked on a locked row), then --resume: every pass once, every device one push",
        .enabled(if: TestPostgres.url != nil, Comment(rawValue: TestPostgres.skipReason)))
    func killAndResume() throws {
        let url = try TestPostgres.freshSchema()
        let keys = try TempDir()
        let renewed = try Self.secondIdentity(keys.path("B"))
        // Twelve passes, one device each, registered through serve (no pushes leave: no APNs stand-in, and
        // serve is stopped before resign runs, so the outbox keeps what resign queued).
        let f = try ServeFixture(python: nil, postgres: url)
        let serials = (1...12).map { String(format: "S%02d", $0) }
        for (number, serial) in serials.enumerated() {
            let token = try f.generate(serial: serial).token
            let reply = try f.register(
                device: "device\(number)", serial: serial, token: token, pushToken: pushToken("cafe", number))
            #expect(reply.status == 201)
        }
        f.stop()
        let maxTag = try TestPostgres.psql(url, "SELECT max(tag) FROM passes")

        // Another session holds S07's row: resign commits S01–S03 and S04–S06, then waits in the S07–S09 chunk.
        let lock = try ManagedProcess(
            "psql lock", "psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url],
            stderrPath: f.tmp.path("lock.err"), keepStdinOpen: true)
        lock.send("BEGIN;\nSELECT serial FROM passes WHERE serial = 'S07' FOR UPDATE;\n")
        #expect(try lock.firstLine() == "S07")
        let report = f.tmp.path("resign.jsonl")
        let args =
            ["resign", "--postgres", url, "--chunk-size", "3", "--report", report] + renewed.args
        let first = try CLI.launch(args)
        let halfway = try waitUntil(timeout: 60) {
            try TestPostgres.psql(url, "SELECT coalesce(max(position), 0) FROM bulk_progress") == "6"
                && TestPostgres.psql(url, "SELECT count(*) FROM push_outbox") == "6"
        }
        #expect(halfway, "resign did not reach the locked row: \(first.isRunning ? "running" : "exited")")
        #expect(first.isRunning, "resign finished although a row it needs is locked")
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        #expect(first.terminationReason == .uncaughtSignal)
        lock.send("ROLLBACK;\n")
        lock.stop(grace: 0)

        let resumed = try CLI.passmint(args + ["--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("12 passes, 6 re-signed, 6 by the interrupted run"), "\(resumed.stderr)")

        // Every pass has a new tag; every device has exactly one push waiting.
        #expect(try TestPostgres.psql(url, "SELECT count(*) FROM passes WHERE tag <= \(maxTag)") == "0")
        #expect(try TestPostgres.psql(url, "SELECT count(*), count(DISTINCT push_token) FROM push_outbox") == "12|12")
        let tokens = try TestPostgres.psql(url, "SELECT push_token FROM push_outbox ORDER BY push_token")
        #expect(tokens.split(separator: "\n").map(String.init) == (0..<12).map { pushToken("cafe", $0) })

        let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
        #expect(lines.compactMap { $0["serialNumber"] as? String } == serials)
        #expect(lines.filter { $0["resumed"] as? Bool == true }.count == 6)
    }
}
