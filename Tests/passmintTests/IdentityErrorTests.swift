import Foundation
import Testing

/// An unusable signing identity is an environment problem: one line naming the file and what to do, exit 3.
@Suite("signing identity errors (end to end)")
struct IdentityErrorTests {
    static func generate(_ tmp: TempDir, _ identity: [String], environment: [String: String] = [:]) throws -> CLI.Result
    {
        try CLI.passmint(
            [
                "generate", "--template", PackagePaths.template("loyalty"), "--out",
                tmp.path("x.pkpass"),
            ] + identity, environment: environment)
    }

    static func expectEnvironmentError(_ result: CLI.Result, naming file: String, _ words: String) {
        #expect(result.status == 3, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(result.stderr)")
        #expect(result.stderr.contains(file), "\(result.stderr)")
        #expect(result.stderr.contains(words), "\(result.stderr)")
    }

    @Test("a TLS certificate, a wrong key, garbage, an encrypted key without its passphrase, a wrong .p12 password")
    func unusableIdentities() throws {
        let tmp = try TempDir()
        let dev = DevIdentity.directory
        _ = try CLI.run(
            "openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", tmp.path("tls-key.pem"),
                "-out", tmp.path("tls.pem"), "-subj", "/CN=passes.example.com", "-days", "30",
            ])
        _ = try CLI.run("openssl", ["genrsa", "-out", tmp.path("other.pem"), "2048"])
        _ = try CLI.run(
            "openssl",
            [
                "rsa", "-in", dev + "/pass-key.pem", "-aes256", "-passout", "pass:secret", "-out",
                tmp.path("encrypted.pem"),
            ])
        try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: tmp.path("garbage.pem")))

        Self.expectEnvironmentError(
            try Self.generate(
                tmp, ["--cert", tmp.path("tls.pem"), "--key", tmp.path("tls-key.pem"), "--wwdr", dev + "/wwdr.pem"]),
            naming: tmp.path("tls.pem"), "is not a Pass Type ID certificate")
        Self.expectEnvironmentError(
            try Self.generate(
                tmp, ["--cert", dev + "/pass-cert.pem", "--key", tmp.path("other.pem"), "--wwdr", dev + "/wwdr.pem"]),
            naming: tmp.path("other.pem"), "does not belong to the certificate")
        Self.expectEnvironmentError(
            try Self.generate(
                tmp, ["--cert", tmp.path("garbage.pem"), "--key", dev + "/pass-key.pem", "--wwdr", dev + "/wwdr.pem"]),
            naming: tmp.path("garbage.pem"), "is not a PEM or DER X.509 certificate")
        Self.expectEnvironmentError(
            try Self.generate(
                tmp,
                ["--cert", dev + "/pass-cert.pem", "--key", tmp.path("encrypted.pem"), "--wwdr", dev + "/wwdr.pem"]),
            naming: tmp.path("encrypted.pem"), "is encrypted")
        Self.expectEnvironmentError(
            try Self.generate(
                tmp, ["--p12", dev + "/pass.p12", "--password-env", "PM_TEST_P12"],
                environment: ["PM_TEST_P12": "not-the-password"]),
            naming: dev + "/pass.p12", "the password does not open")
        #expect(!FileManager.default.fileExists(atPath: tmp.path("x.pkpass")))
    }

    @Test("a private key readable by others is warned about; the pass is still made")
    func readableKey() throws {
        let tmp = try TempDir()
        let dir = tmp.path("certs")
        _ = try CLI.passmint(["certs", "dev", "--dir", dir])
        chmod(dir + "/pass-key.pem", 0o644)
        let result = try Self.generate(tmp, ["--cert-dir", dir])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("\(dir)/pass-key.pem holds a private key and is readable by others (mode 644)"),
            "\(result.stderr)")
        chmod(dir + "/pass-key.pem", 0o600)
        #expect(!(try Self.generate(tmp, ["--cert-dir", dir])).stderr.contains("readable by"))
    }
}
