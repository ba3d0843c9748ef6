import Foundation
import Testing

@Suite("certs dev (end to end)")
struct CertsDevTests {
    @Test("writes the contract files with the right modes, subject, extension and EKU")
    func contract() throws {
        let tmp = try TempDir()
        let dir = tmp.path("dev")
        let result = try CLI.passmint([
            "certs", "dev", "--dir", dir, "--pass-type-id", "pass.com.example.test", "--team-id", "TEAM123456",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        for name in ["root-ca.pem", "wwdr.pem", "pass-cert.pem", "pass-key.pem", "pass.p12"] {
            #expect(FileManager.default.fileExists(atPath: "\(dir)/\(name)"), "\(name) missing")
        }
        let mode = try FileManager.default.attributesOfItem(atPath: "\(dir)/pass-key.pem")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let text = try CLI.run(
            "openssl", ["x509", "-in", "\(dir)/pass-cert.pem", "-noout", "-text", "-nameopt", "RFC2253"]
        ).stdout
        #expect(text.contains("UID=pass.com.example.test"))
        #expect(text.contains("CN=Pass Type ID: pass.com.example.test"))
        #expect(text.contains("OU=TEAM123456"))
        #expect(text.contains("1.2.840.113635.100.6.1.16"))
        #expect(text.contains("1.2.840.113635.100.4.14"))
        let chain = try CLI.run(
            "openssl",
            [
                "verify", "-CAfile", "\(dir)/root-ca.pem", "-untrusted", "\(dir)/wwdr.pem", "-purpose", "any",
                "\(dir)/pass-cert.pem",
            ])
        #expect(chain.status == 0, "\(chain.stdout) \(chain.stderr)")
        let p12 = try CLI.run(
            "openssl", ["pkcs12", "-in", "\(dir)/pass.p12", "-nokeys", "-passin", "pass:passmint-dev", "-legacy"])
        let p12b =
            p12.status == 0
            ? p12
            : try CLI.run("openssl", ["pkcs12", "-in", "\(dir)/pass.p12", "-nokeys", "-passin", "pass:passmint-dev"])
        #expect(p12b.status == 0, "pass.p12 does not open with password passmint-dev: \(p12b.stderr)")
    }

    @Test("--nfc makes an NFC-enabled leaf (CN Pass Type ID with NFC), which certs inspect reports")
    func nfc() throws {
        let tmp = try TempDir()
        let dir = tmp.path("nfc")
        let result = try CLI.passmint(["certs", "dev", "--nfc", "--dir", dir])
        #expect(result.status == 0, "\(result.stderr)")
        let subject = try CLI.run(
            "openssl", ["x509", "-in", "\(dir)/pass-cert.pem", "-noout", "-subject", "-nameopt", "RFC2253"]
        ).stdout
        #expect(subject.contains("CN=Pass Type ID with NFC: pass.dev.passmint"), "\(subject)")
        let inspected = try CLI.passmint(["certs", "inspect", "\(dir)/pass-cert.pem"])
        #expect(inspected.stdout.contains("yes (Pass Type ID with NFC)"), "\(inspected.stdout)")
    }
}
