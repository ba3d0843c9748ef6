import Foundation
import Testing

@testable import PassSigning

@Suite("Certificate")
struct CertificateTests {
    @Test("PEM and DER parse to the same certificate; load detects the format")
    func pemAndDER() throws {
        try withTemporaryDirectory { directory in
            let paths = try TestSupport.devChain(in: directory)
            let pem = try Certificate(pem: TestSupport.read(paths.certificate))
            let der = try Certificate(der: pem.derBytes)
            #expect(pem == der)
            let derPath = directory + "/leaf.cer"
            try TestSupport.write(pem.derBytes, to: derPath)
            #expect(try Certificate.load(path: derPath) == pem)
            let chainPath = directory + "/chain.pem"
            try TestSupport.write(try TestSupport.read(paths.certificate) + TestSupport.read(paths.wwdr), to: chainPath)
            #expect(try Certificate.loadAll(path: chainPath).count == 2)
        }
    }

    @Test("fingerprint and serial agree with the openssl CLI")
    func fingerprintAndSerial() throws {
        try withTemporaryDirectory { directory in
            let paths = try TestSupport.devChain(in: directory)
            let leaf = try Certificate.load(path: paths.certificate)
            let cli = try TestSupport.openssl(
                ["x509", "-in", paths.certificate, "-noout", "-fingerprint", "-sha256", "-serial"])
            #expect(cli.stdout.contains("Fingerprint=\(leaf.sha256Fingerprint)"))
            #expect(cli.stdout.contains("serial=\(leaf.serialNumberHex)"))
            #expect(leaf.sha256Fingerprint.count == 32 * 3 - 1)
        }
    }

    @Test("garbage is refused with the file named")
    func garbage() throws {
        #expect(throws: SigningError.self) { try Certificate(der: [0x30, 0x03, 0x01, 0x01, 0x00]) }
        #expect(throws: SigningError.self) { try Certificate(pem: Array("-----BEGIN CERTIFICATE-----\n".utf8)) }
        try withTemporaryDirectory { directory in
            let path = directory + "/not-a-cert.pem"
            try TestSupport.write(Array("hello".utf8), to: path)
            let error = #expect(throws: SigningError.self) { try Certificate.load(path: path) }
            guard case .invalidCertificate(let errorPath, _)? = error else {
                Issue.record("unexpected \(String(describing: error))")
                return
            }
            #expect(errorPath == path)
            #expect(error?.description.contains(path) == true)
            #expect(throws: SigningError.fileUnreadable(path: directory + "/missing.pem", reason: "no such file")) {
                try Certificate.load(path: directory + "/missing.pem")
            }
        }
    }

    @Test("pass type ID falls back to UID, then to the CN; NFC certificates are recognised")
    func passTypeFallbacks() throws {
        let key = try CertificateBuilder.generateRSAKey()
        let nfc = try CertificateBuilder.make(
            subject: [("CN", "Pass Type ID with NFC: pass.example.nfc"), ("OU", "TEAM")], key: key, issuer: nil,
            validDays: 1, extensions: [])
        #expect(nfc.passTypeIdentifier == "pass.example.nfc")
        #expect(nfc.isNFCEnabled)
        #expect(!nfc.hasPassTypeExtension && !nfc.hasPassEKU)
        let withUID = try CertificateBuilder.make(
            subject: [("UID", "pass.example.uid"), ("CN", "Pass Type ID: pass.example.cn")], key: key, issuer: nil,
            validDays: 1, extensions: [.raw(oid: X509Facts.passTypeExtensionOID, der: [0x05, 0x00], critical: false)])
        #expect(withUID.hasPassTypeExtension)
        #expect(withUID.passTypeIdentifier == "pass.example.uid")
        let other = try CertificateBuilder.make(
            subject: [("CN", "Someone, Else")], key: key, issuer: nil, validDays: 1, extensions: [])
        #expect(other.passTypeIdentifier == nil)
        #expect(other.subject == "CN=Someone\\, Else")
    }
}
