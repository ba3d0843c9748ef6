import Foundation
import PassMintTestSupport
import Testing

/// Commands that work from any folder: the certificate folder and the store named by environment variables, and
/// `scripts/test-postgres` servers that never stop each other.
@Suite("environment defaults and test servers (end to end)")
struct EnvironmentDefaultsTests {
    @Test("PASSMINT_CERT_DIR and PASSMINT_DB: certs dev, generate, update and stats from an empty folder, no options")
    func fromAnotherFolder() throws {
        let tmp = try TempDir()
        let work = tmp.url.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let environment = ["PASSMINT_CERT_DIR": tmp.path("certs"), "PASSMINT_DB": tmp.path("store.db")]
        let certs = try CLI.passmint(["certs", "dev"], cwd: work, environment: environment)
        #expect(certs.status == 0, "\(certs.stderr)")
        #expect(FileManager.default.fileExists(atPath: tmp.path("certs/pass-cert.pem")))
        let generated = try CLI.passmint(
            [
                "generate", "--template", PackagePaths.template("loyalty"), "--serial", "ENV-1", "--web-service-url",
                "https://passes.example.com/", "--out", "env.pkpass",
            ], cwd: work, environment: environment)
        #expect(generated.status == 0, "\(generated.stderr)")
        let updated = try CLI.passmint(["update", "ENV-1", "--add", "points=5"], cwd: work, environment: environment)
        #expect(updated.status == 0, "\(updated.stderr)")
        #expect(updated.stdout.contains("points: 250 → 255"), "\(updated.stdout)")
        let stats = try CLI.passmint(["stats", "--json"], cwd: work, environment: environment)
        #expect(stats.status == 0 && stats.stdout.contains(#""issued":1"#), "\(stats.stdout) \(stats.stderr)")
        #expect(
            try ServeTools.sqlite(tmp.path("store.db"), "SELECT json_extract(record, '$.points') FROM passes") == "255")
        // Nothing was made in the working folder but the pass itself.
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path) == ["env.pkpass"])
    }

    /// A PostgreSQL server binary for `scripts/test-postgres`.
    static let hasPostgresServer =
        (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))?.contains {
            FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/initdb")
        } ?? false

    @Test(
        "scripts/test-postgres: two runs' servers side by side; stopping one leaves the other running",
        .enabled(if: hasPostgresServer, "no PostgreSQL server binaries: apt-get install postgresql"),
        .timeLimit(.minutes(2)))
    func serversPerRun() throws {
        let tmp = try TempDir()
        let script = PackagePaths.root.appendingPathComponent("scripts/test-postgres").path
        // Only the env files name servers here, never the shared one this test process may have been given.
        let environment = ["PASSMINT_TEST_POSTGRES_DIR": "", "PASSMINT_TEST_POSTGRES_STATE": ""]
        let first = tmp.path("first.env"), second = tmp.path("second.env")
        defer {
            _ = try? CLI.run(script, ["stop", first], environment: environment)
            _ = try? CLI.run(script, ["stop", second], environment: environment)
        }
        let a = try CLI.run(script, ["start", first], environment: environment)
        try #require(a.status == 0, "\(a.stderr)")
        let b = try CLI.run(script, ["start", second], environment: environment)
        try #require(b.status == 0, "\(b.stderr)")
        #expect(a.stdout != b.stdout, "both runs got the same server: \(a.stdout)")
        let urlB = b.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "PASSMINT_TEST_POSTGRES_URL=", with: "")
        #expect(try CLI.run(script, ["stop", first], environment: environment).status == 0)
        #expect(try CLI.run(script, ["status", first], environment: environment).status != 0)
        #expect(try CLI.run(script, ["status", second], environment: environment).status == 0)
        #expect(try TestPostgres.psql(urlB, "SELECT 1") == "1")
    }
}
