import Foundation
import Testing

/// `serve` and its signing identity: reloaded on SIGHUP without a restart (a refused one keeps the old), and the
/// expiry warning in the log and in /metrics. Real binary, files replaced on disk, signatures read with openssl.
@Suite("serve: signing identity reload and expiry warning (end to end)", .serialized)
struct ServeIdentityReloadTests {
    /// Replaces `folder`'s pass-cert.pem, pass-key.pem and wwdr.pem with those of `source`, each by a rename (what
    /// a careful renewal does: serve never reads a half-written file).
    static func install(_ source: String, into folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in ["pass-cert.pem", "pass-key.pem", "wwdr.pem"] {
            let temporary = folder + "/." + name + ".new"
            try? FileManager.default.removeItem(atPath: temporary)
            try FileManager.default.copyItem(atPath: source + "/" + name, toPath: temporary)
            guard rename(temporary, folder + "/" + name) == 0 else { throw ServeFailure("rename \(name)") }
        }
    }

    static func arguments(_ folder: String) -> [String] {
        ["--cert", folder + "/pass-cert.pem", "--key", folder + "/pass-key.pem", "--wwdr", folder + "/wwdr.pem"]
    }

    /// Downloads `serial` and returns the serial of the certificate that signed it (verified against `rootCA`).
    static func signer(_ f: ServeFixture, _ serial: String, token: String, rootCA: String) throws -> String? {
        let reply = try f.download(serial: serial, token: token)
        guard reply.status == 200 else { throw ServeFailure("download \(serial): \(reply.status)") }
        let file = f.tmp.path("download-\(UUID().uuidString).pkpass")
        try reply.body.write(to: URL(fileURLWithPath: file))
        return try ServeTools.signerSerial(file, rootCA: rootCA, tmp: f.tmp)
    }

    static func metrics(_ f: ServeFixture) throws -> String {
        String(decoding: try f.http("GET", "/metrics").body, as: UTF8.self)
    }

    @Test("SIGHUP: downloads are signed by the new identity without a restart; a refused identity keeps the old one")
    func reloadOnHangUp() throws {
        let keys = try TempDir()
        let current = keys.path("current")
        try Self.install(DevIdentity.directory, into: current)
        let renewed = try ResignTests.secondIdentity(keys.path("B"))
        _ = try ResignTests.secondIdentity(keys.path("C"), team: "OTHERTEAM9")
        let oldSerial = try ServeTools.certificateSerial(DevIdentity.directory + "/pass-cert.pem")
        let oldRoot = DevIdentity.directory + "/root-ca.pem"

        let f = try ServeFixture(python: nil, signingArguments: Self.arguments(current))
        let token = try f.generate(serial: "H1").token
        // Twice: the second answer comes from the render cache, which must not outlive the identity.
        #expect(try Self.signer(f, "H1", token: token, rootCA: oldRoot) == oldSerial)
        #expect(try Self.signer(f, "H1", token: token, rootCA: oldRoot) == oldSerial)
        let lastModified = try f.download(serial: "H1", token: token).headers["last-modified"]
        #expect(try Self.metrics(f).contains("passmint_signing_certificate_expiring 0\n"))

        // Another team's certificate: refused, logged, the old identity keeps signing.
        try Self.install(keys.path("C"), into: current)
        kill(f.serve.process.processIdentifier, SIGHUP)
        let refused = waitUntil(timeout: 20) { f.serve.stderr.contains("new signing identity refused") }
        #expect(refused, "\(f.serve.stderr)")
        #expect(f.serve.stderr.contains("OTHERTEAM9"), "\(f.serve.stderr)")
        #expect(try Self.signer(f, "H1", token: token, rootCA: oldRoot) == oldSerial)

        // The renewed certificate: accepted, and the very next download (same tag, cached before) is signed by it.
        try Self.install(keys.path("B"), into: current)
        kill(f.serve.process.processIdentifier, SIGHUP)
        let reloaded = waitUntil(timeout: 20) {
            f.serve.stderr.contains("SIGHUP: signing with") && f.serve.stderr.contains("serial \(renewed.serial)")
        }
        #expect(reloaded, "\(f.serve.stderr)")
        #expect(try Self.signer(f, "H1", token: token, rootCA: keys.path("B/root-ca.pem")) == renewed.serial)
        #expect(try Self.signer(f, "H1", token: token, rootCA: oldRoot) == nil, "still verifies with the old root")
        #expect(try f.download(serial: "H1", token: token).headers["last-modified"] == lastModified)
        #expect(f.serve.isRunning)
        #expect(f.stop() == 0)
    }

    @Test(
        "SIGHUP: pushes then go out with the new certificate as APNs client certificate",
        .enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing))
    func reloadSwitchesAPNsCertificate() throws {
        let keys = try TempDir()
        let current = keys.path("current")
        try Self.install(DevIdentity.directory, into: current)
        _ = try ResignTests.secondIdentity(keys.path("B"))
        // The stand-in accepts only the renewed chain: a push made with the old certificate cannot arrive.
        let f = try ServeFixture(
            python: TestTools.pythonWithH2, signingArguments: Self.arguments(current),
            clientCAs: [keys.path("B/wwdr.pem"), keys.path("B/root-ca.pem")])
        let token = try f.generate(serial: "P1").token
        let pushToken = pushToken("feed", 1)
        #expect(try f.register(device: "device1", serial: "P1", token: token, pushToken: pushToken).status == 201)

        try Self.install(keys.path("B"), into: current)
        kill(f.serve.process.processIdentifier, SIGHUP)
        #expect(waitUntil(timeout: 20) { f.serve.stderr.contains("SIGHUP: signing with") })
        let update = try f.update("P1", ["tier=Gold"])
        #expect(update.status == 0, "\(update.stderr)")
        let arrived = try waitUntil(timeout: 30) { try f.pushedTokens() == [pushToken] }
        #expect(arrived, "pushed: \((try? f.pushedTokens()) ?? []); serve: \(f.serve.stderr)")
        #expect(try waitUntil(timeout: 20) { try f.count("push_outbox") == 0 })
        #expect(try f.apnsRequests().count == 1)
    }

    @Test(
        "a certificate expiring within 30 days: a log line and passmint_signing_certificate_expiring 1, at start and after a reload"
    )
    func expiryWarning() throws {
        let keys = try TempDir()
        let current = keys.path("current")
        try Self.install(DevIdentity.directory, into: current)
        _ = try ResignTests.secondIdentity(keys.path("soon"), days: 10)

        let f = try ServeFixture(python: nil, signingArguments: Self.arguments(current))
        #expect(!f.serve.stderr.contains("expires on"))
        let healthy = try Self.metrics(f)
        #expect(healthy.contains("passmint_signing_certificate_expiring 0\n"), "\(healthy)")

        // After a reload onto the near-expiry certificate.
        try Self.install(keys.path("soon"), into: current)
        kill(f.serve.process.processIdentifier, SIGHUP)
        let warned = waitUntil(timeout: 20) {
            f.serve.stderr.contains("SIGHUP: signing with")
                && f.serve.stderr.contains("warning: the signing certificate")
        }
        #expect(warned, "\(f.serve.stderr)")
        let soon = try Self.metrics(f)
        #expect(soon.contains("passmint_signing_certificate_expiring 1\n"), "\(soon)")
        let line = soon.split(separator: "\n").first {
            $0.hasPrefix("passmint_signing_certificate_expiry_timestamp_seconds ")
        }
        let expiry = try #require(line.flatMap { Double($0.split(separator: " ")[1]) })
        let days = (expiry - Date().timeIntervalSince1970) / 86_400
        #expect(days > 9 && days <= 10, "expiry in \(days) days")

        // At start.
        try f.restart(signingArguments: Self.arguments(current))
        #expect(f.serve.stderr.contains("expires on"), "\(f.serve.stderr)")
        #expect(try Self.metrics(f).contains("passmint_signing_certificate_expiring 1\n"))
    }
}
