import Foundation
import Testing
@testable import PassHTTP
@testable import PassService
import PassMintTestSupport

@Suite("TLS", .serialized)
struct TLSTests {
    @Test("libmicrohttpd here has TLS")
    func available() {
        #expect(TLSCredentials.isAvailable)
    }

    @Test("HTTPS with the certificate made at test time: curl --cacert gets 200 from /healthz; plain HTTP fails")
    func endToEnd() throws {
        let directory = try TempDir()
        let pki = try TestServerCertificate(in: directory)
        var configuration = ServiceConfiguration(host: "127.0.0.1", port: 0)
        configuration.tls = try TLSCredentials.load(certificatePath: pki.certificate, keyPath: pki.key)
        let live = try LiveService(configuration: configuration)
        let https = try CLI.run(
            "curl",
            [
                "-sS", "--cacert", pki.ca, "-o", "-", "-w", "\n%{http_code} %{ssl_verify_result}",
                "https://127.0.0.1:\(live.port)/healthz",
            ])
        #expect(https.status == 0, "\(https.stderr)")
        #expect(https.stdout == "ok\n\n200 0")
        let tls12 = try CLI.run(
            "curl",
            [
                "-sS", "--cacert", pki.ca, "--tls-max", "1.2", "-o", "/dev/null", "-w", "%{http_code}",
                "https://localhost:\(live.port)/healthz",
            ])
        #expect(tls12.stdout == "200", "\(tls12.stderr)")
        let tls11 = try CLI.run(
            "curl",
            [
                "-sS", "--cacert", pki.ca, "--tlsv1.0", "--tls-max", "1.1", "-o", "/dev/null",
                "https://127.0.0.1:\(live.port)/healthz",
            ])
        #expect(tls11.status != 0, "TLS 1.1 was accepted")
        let plain = try CLI.run(
            "curl",
            ["-sS", "-m", "10", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(live.port)/healthz"])
        #expect(plain.status != 0, "plain HTTP was answered: \(plain.stdout)")
        #expect(plain.stdout == "000")
        #expect(live.settles())
    }

    @Test("unusable files are refused before anything listens, each naming the file and never the key")
    func refusals() throws {
        let directory = try TempDir()
        let pki = try TestServerCertificate(in: directory)
        let otherDirectory = try TempDir()
        let other = try TestServerCertificate(in: otherDirectory)
        let der = directory.path("server.der")
        let converted = try CLI.run("openssl", ["x509", "-in", pki.certificate, "-outform", "DER", "-out", der])
        try #require(converted.status == 0)
        let garbage = try directory.write(
            Array("-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n".utf8), "garbage.pem")
        let encrypted = directory.path("encrypted.key")
        let encrypting = try CLI.run(
            "openssl", ["pkey", "-in", pki.key, "-aes256", "-passout", "pass:secret", "-out", encrypted])
        try #require(encrypting.status == 0)

        let cases: [(String, String, HTTPServerError)] = [
            (
                "/nonexistent/cert.pem", pki.key,
                .tlsFile(
                    path: "/nonexistent/cert.pem",
                    problem: .unreadable(kind: .certificate, errno: ENOENT))
            ),
            (
                pki.certificate, "/nonexistent/key.pem",
                .tlsFile(
                    path: "/nonexistent/key.pem",
                    problem: .unreadable(kind: .privateKey, errno: ENOENT))
            ),
            (der, pki.key, .tlsFile(path: der, problem: .notPEM(kind: .certificate))),
            (pki.certificate, encrypted, .tlsFile(path: encrypted, problem: .encryptedKey)),
            (pki.certificate, other.key, .tlsKeyMismatch(certificatePath: pki.certificate, keyPath: other.key)),
        ]
        let key = try String(contentsOfFile: pki.key, encoding: .utf8)
        let keyBody = key.split(separator: "\n")[1]
        for (certificate, keyPath, expected) in cases {
            #expect(throws: expected) { _ = try TLSCredentials.load(certificatePath: certificate, keyPath: keyPath) }
            #expect(!"\(expected)".contains(keyBody))
        }
        #expect {
            _ = try TLSCredentials.load(certificatePath: garbage, keyPath: pki.key)
        } throws: { error in
            guard case HTTPServerError.tlsFile(garbage, .invalid(.certificate, _)) = error else { return false }
            return "\(error)".contains(garbage)
        }
        let loaded = try TLSCredentials.load(certificatePath: pki.certificate, keyPath: pki.key)
        var dumped = ""
        dump(loaded, to: &dumped)
        for shown in [dumped, "\(loaded)", String(reflecting: loaded)] {
            #expect(!shown.contains(keyBody), "the key is shown: \(shown)")
            #expect(shown.contains(pki.key))
        }
        withExtendedLifetime(otherDirectory) {}
    }
}
