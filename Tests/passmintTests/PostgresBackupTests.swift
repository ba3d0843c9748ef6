import Foundation
import PassMintTestSupport
import Testing

/// The README's "what to back up" for a PostgreSQL deployment, done: `pg_dump -Fc` of a running program, restored
/// with `pg_restore` into another database, served by a new instance with the template folder gone.
@Suite(
    "README deployment: a pg_dump backup restored (end to end)",
    .enabled(if: TestPostgres.url != nil, Comment(rawValue: TestPostgres.skipReason)))
struct PostgresBackupTests {
    @Test(
        "pg_dump, pg_restore into a new database, the template folder deleted: passes download with their tokens, devices list them, pending pushes and template versions are there, and an update still re-renders",
        .timeLimit(.minutes(3)))
    func dumpAndRestore() throws {
        let server = try #require(TestPostgres.url)
        let schema = try TestPostgres.freshSchemaName()
        let url = try TestPostgres.url(schema: schema)
        let tmp = try TempDir()
        // The program's own template folder, issued from and then lost with the machine.
        let template = tmp.path("status")
        try FileManager.default.copyItem(atPath: ServeTools.status, toPath: template)
        let csv = tmp.path("members.csv")
        try Data(
            "serialNumber,memberName,memberNumber,tier\nBK-1,Ada,PMA-1,Silver\nBK-2,Grace,PMA-2,Silver\n".utf8
        ).write(to: URL(fileURLWithPath: csv))
        let issued = try CLI.passmint(
            [
                "batch", "--template", template, "--csv", csv, "--out", tmp.path("out"), "--postgres", url,
                "--web-service-url", "https://passes.example.com/",
            ] + DevIdentity.signingArgs)
        try #require(issued.status == 0, "\(issued.stderr)")

        let original = try ServeFixture(python: nil, postgres: url)
        let tokens = try TestPostgres.psql(url, "SELECT serial || ' ' || auth_token FROM passes ORDER BY serial")
            .split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        try #require(tokens.count == 2)
        for (i, pair) in tokens.enumerated() {
            let reply = try original.register(
                device: "bk\(i)", serial: pair[0], token: pair[1], pushToken: pushToken("bb", i))
            #expect(reply.status == 201)
        }
        let updated = try original.update("BK-1", ["tier=Gold"])
        try #require(updated.status == 0, "\(updated.stderr)")
        let pending = try original.count("push_outbox")
        #expect(pending == 1)
        let versions = try original.count("template_versions")
        #expect(versions >= 1)
        original.stop()

        // The backup of the README, then a new database from it.
        let dump = tmp.path("passmint.dump")
        let dumped = try CLI.run("pg_dump", ["-Fc", "-n", schema, "-f", dump, "-d", server])
        try #require(dumped.status == 0, "\(dumped.stderr)")
        let database = "restore_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try TestPostgres.psql(server, "CREATE DATABASE \(database)")
        defer { _ = try? TestPostgres.psql(server, "DROP DATABASE IF EXISTS \(database) WITH (FORCE)") }
        let restoredURL = try TestPostgres.url(schema: schema, database: database)
        let restored = try CLI.run("pg_restore", ["--no-owner", "-d", restoredURL, dump])
        try #require(restored.status == 0, "\(restored.stderr)")
        try FileManager.default.removeItem(atPath: template)

        let f = try ServeFixture(python: nil, postgres: restoredURL)
        defer { f.stop() }
        for (i, pair) in tokens.enumerated() {
            let pass = try f.download(serial: pair[0], token: pair[1])
            #expect(pass.status == 200, "\(pair[0]): \(pass.text)")
            let path = f.tmp.path("\(pair[0]).pkpass")
            try pass.body.write(to: URL(fileURLWithPath: path))
            #expect(try ServeTools.opensslVerifies(path, tmp: f.tmp))
            let json = String(decoding: try ServeTools.entry(path, "pass.json", tmp: f.tmp), as: UTF8.self)
            #expect(json.contains(pair[0] == "BK-1" ? "Gold" : "Silver"))
            let list = try f.list(device: "bk\(i)")
            #expect(try list.json()["serialNumbers"] as? [String] == [pair[0]])
        }
        #expect(try f.count("push_outbox") == pending)
        #expect(try f.count("template_versions") == versions)
        // Rendered from the stored template version: the folder it was issued from no longer exists.
        let again = try f.update("BK-2", ["tier=Gold"])
        #expect(again.status == 0, "\(again.stderr)")
        let pass = try f.download(serial: "BK-2", token: tokens[1][1])
        let path = f.tmp.path("BK-2-gold.pkpass")
        try pass.body.write(to: URL(fileURLWithPath: path))
        #expect(String(decoding: try ServeTools.entry(path, "pass.json", tmp: f.tmp), as: UTF8.self).contains("Gold"))
        #expect(try f.count("push_outbox") == pending + 1)
    }
}
