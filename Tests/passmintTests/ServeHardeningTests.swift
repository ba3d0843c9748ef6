import Foundation
import Testing

/// `passmint serve` facing the internet: what the binary itself refuses, creates and warns about.
@Suite("serve: hardening (end to end)", .serialized)
struct ServeHardeningTests {
    private func mode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    private func serve(_ tmp: TempDir, db: String, environment: [String: String], extra: [String] = [])
        throws -> ManagedProcess
    {
        try ManagedProcess(
            "passmint serve", CLI.binary,
            ["serve", "--db", db, "--port", "0", "--threads", "2", "--apns", "https://127.0.0.1:9"] + extra
                + DevIdentity.signingArgs,
            environment: environment, stderrPath: tmp.path("serve-\(UUID().uuidString).err"))
    }

    @Test(
        "an admin token under 32 characters: exit 3 naming the variable, never the token, and no store created",
        arguments: [
            ("PASSMINT_ADMIN_TOKEN", [String]()), ("MY_ADMIN", ["--admin-token-env", "MY_ADMIN"]),
        ])
    func weakAdminToken(variable: String, extra: [String]) throws {
        let tmp = try TempDir()
        let db = tmp.path("\(variable).db")
        let token = "0123456789"
        let process = try serve(tmp, db: db, environment: [variable: token], extra: extra)
        let status = process.waitForExit(timeout: 60)
        process.stop(grace: 0)
        #expect(status == 3, "serve kept running or exited \(status.map(String.init) ?? "-"): \(process.stderr)")
        #expect(process.stderr.contains(variable) && process.stderr.contains("32"), "\(process.stderr)")
        #expect(!process.stderr.contains(token), "the token leaked: \(process.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db))
    }

    @Test(
        "a blank admin token (32 spaces, or whitespace inside): exit 3 naming the variable, no store created",
        arguments: [String(repeating: " ", count: 32), "0123456789abcdef 0123456789abcdef"])
    func blankAdminToken(token: String) throws {
        let tmp = try TempDir()
        let db = tmp.path("blank.db")
        let process = try serve(tmp, db: db, environment: ["PASSMINT_ADMIN_TOKEN": token])
        let status = process.waitForExit(timeout: 60)
        process.stop(grace: 0)
        #expect(status == 3, "serve kept running or exited \(status.map(String.init) ?? "-"): \(process.stderr)")
        #expect(process.stderr.contains("PASSMINT_ADMIN_TOKEN"), "\(process.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db))
    }

    @Test("pushing to production APNs with the development chain is warned about at start; a test APNs is not")
    func developmentIdentityWithProductionAPNs() throws {
        let tmp = try TempDir()
        let production = try ManagedProcess(
            "passmint serve", CLI.binary,
            ["serve", "--db", tmp.path("a.db"), "--port", "0", "--threads", "2"] + DevIdentity.signingArgs,
            stderrPath: tmp.path("production.err"))
        defer { production.stop() }
        _ = try production.firstLine()
        #expect(production.stderr.contains("production APNs (api.push.apple.com)"), "\(production.stderr)")
        #expect(production.stderr.contains("not by Apple's WWDR"), "\(production.stderr)")
        let local = try serve(tmp, db: tmp.path("b.db"), environment: [:])
        defer { local.stop() }
        _ = try local.firstLine()
        #expect(!local.stderr.contains("production APNs"), "\(local.stderr)")
    }

    @Test(
        "a TLS key readable by group or others is warned about at start with the chmod fix; a 0600 one is not",
        arguments: [(0o644, true), (0o640, true), (0o600, false)])
    func readableTLSKey(mode: Int, warned: Bool) throws {
        let tmp = try TempDir()
        let server = try TestServerCertificate(in: tmp)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: server.key)
        let process = try serve(
            tmp, db: tmp.path("tls.db"), environment: [:],
            extra: ["--tls-cert", server.certificate, "--tls-key", server.key])
        defer { process.stop() }
        _ = try process.firstLine()
        let said = process.stderr.contains("the TLS key \(server.key) holds a private key and is readable by")
        #expect(said == warned, "mode \(String(mode, radix: 8)): \(process.stderr)")
        if warned { #expect(process.stderr.contains("chmod 600 \(server.key)")) }
    }

    @Test("the store serve creates, and its -wal and -shm, are 0600")
    func storeModes() throws {
        let f = try ServeFixture(python: nil)
        defer { f.stop() }
        _ = try f.generate(serial: "MODE-1")
        for file in [f.db, f.db + "-wal", f.db + "-shm"] {
            #expect(FileManager.default.fileExists(atPath: file), "\(file) missing")
            #expect(mode(file) == 0o600, "\(file): \(String(mode(file) ?? -1, radix: 8))")
        }
        #expect(!f.serve.stderr.contains("accessible to other users"))
    }

    @Test("serve warns, with the fix, about an existing store that others can read")
    func readableStoreWarning() throws {
        let tmp = try TempDir()
        let db = tmp.path("open.db")
        let generated = try CLI.passmint(
            [
                "generate", "--template", ServeTools.status, "--db", db, "--serial", "OPEN-1", "--out",
                tmp.path("open.pkpass"),
            ] + DevIdentity.signingArgs)
        try #require(generated.status == 0, "\(generated.stderr)")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: db)
        let process = try serve(tmp, db: db, environment: [:])
        defer { process.stop() }
        _ = try process.firstLine()
        #expect(
            process.stderr.contains("store file \(db) is accessible to other users (mode 644)"), "\(process.stderr)")
        #expect(process.stderr.contains("chmod 600 \(db)"))
    }

    @Test("%00 after a serial gets 400 from the real server, and a registration for it registers nothing")
    func percentNul() throws {
        let f = try ServeFixture(python: nil)
        defer { f.stop() }
        let (_, token) = try f.generate(serial: "NUL-1")
        #expect(
            try f.http(
                "GET", "/v1/passes/\(ServeTools.passType)/NUL-1%00", headers: ["Authorization": "ApplePass \(token)"]
            )
            .status == 400)
        let registered = try f.register(
            device: "dev1", serial: "NUL-1%00", token: token, pushToken: pushToken("ab", 1))
        #expect(registered.status == 400)
        #expect(try f.count("registrations") == 0)
        #expect(try f.download(serial: "NUL-1", token: token).status == 200)
    }
}
