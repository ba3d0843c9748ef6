import Foundation
import Testing

@testable import PassSigning

@Suite("DevCertificates")
struct DevCertificatesTests {
    @Test("writes the five files with private ones at 0600 and the folder at 0700")
    func writesFiles() throws {
        try withTemporaryDirectory { directory in
            let paths = try DevCertificates.generate(directory: directory + "/nested/dev")
            #expect(paths.rootCA == directory + "/nested/dev/root-ca.pem")
            #expect(paths.wwdr.hasSuffix("/wwdr.pem"))
            #expect(paths.certificate.hasSuffix("/pass-cert.pem"))
            #expect(paths.key.hasSuffix("/pass-key.pem"))
            #expect(paths.pkcs12.hasSuffix("/pass.p12"))
            #expect(try TestSupport.mode(paths.directory) == 0o700)
            #expect(try TestSupport.mode(paths.key) == 0o600)
            #expect(try TestSupport.mode(paths.pkcs12) == 0o600)
            let first = try Certificate.load(path: paths.certificate)
            let again = try DevCertificates.generate(directory: directory + "/nested/dev")
            #expect(again == paths)
            #expect(try Certificate.load(path: paths.certificate) != first)  // replaced, not appended
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: paths.directory)
            #expect(leftovers.sorted() == ["pass-cert.pem", "pass-key.pem", "pass.p12", "root-ca.pem", "wwdr.pem"])
        }
    }

    @Test("the leaf carries Apple's pass-type facts")
    func leafFacts() throws {
        try withTemporaryDirectory { directory in
            let paths = try DevCertificates.generate(
                directory: directory, passTypeIdentifier: "pass.example.leaf", teamIdentifier: "ABCDE12345",
                validDays: 10)
            let leaf = try Certificate.load(path: paths.certificate)
            #expect(
                leaf.subject == "UID=pass.example.leaf, CN=Pass Type ID: pass.example.leaf, OU=ABCDE12345, "
                    + "O=PassMint Development, C=US")
            #expect(leaf.passTypeIdentifier == "pass.example.leaf")
            #expect(leaf.teamIdentifier == "ABCDE12345")
            #expect(leaf.userID == "pass.example.leaf")
            #expect(leaf.hasPassTypeExtension)
            #expect(leaf.hasPassEKU)
            #expect(!leaf.isNFCEnabled)
            #expect(!leaf.isCertificateAuthority)
            #expect(leaf.issuerOrganizationalUnit == "G4")
            #expect(leaf.issuerCommonName == "PassMint Development WWDR")
            #expect(leaf.publicKeyDescription == "RSA 2048")
            let days = leaf.notAfter.timeIntervalSince(Date()) / 86_400
            #expect(days > 9.9 && days <= 10.01)
            #expect(leaf.isValid())

            let wwdr = try Certificate.load(path: paths.wwdr)
            let root = try Certificate.load(path: paths.rootCA)
            #expect(wwdr.isCertificateAuthority && root.isCertificateAuthority)
            #expect(leaf.isIssued(by: wwdr))
            #expect(wwdr.isIssued(by: root))
            #expect(!leaf.isIssued(by: root))
            #expect(wwdr.notAfter.timeIntervalSince(Date()) > 3_649 * 86_400)
        }
    }

    @Test("the openssl CLI accepts the chain and sees the pass-type extension as UTF8String")
    func opensslAcceptsChain() throws {
        try withTemporaryDirectory { directory in
            let paths = try TestSupport.devChain(in: directory)
            let verify = try TestSupport.openssl(
                ["verify", "-CAfile", paths.rootCA, "-untrusted", paths.wwdr, "-purpose", "any", paths.certificate])
            #expect(verify.status == 0, "\(verify.stderr)")
            let parsed = try TestSupport.openssl(["asn1parse", "-in", paths.certificate])
            #expect(parsed.stdout.contains("1.2.840.113635.100.6.1.16"))
            let text = try TestSupport.openssl(["x509", "-in", paths.certificate, "-noout", "-ext", "extendedKeyUsage"])
            #expect(text.stdout.contains("1.2.840.113635.100.4.14"))
        }
    }

    @Test("pass.p12 opens with the documented password and includes the WWDR")
    func pkcs12Opens() throws {
        try withTemporaryDirectory { directory in
            let paths = try TestSupport.devChain(in: directory)
            let identity = try SigningIdentity.load(
                pkcs12Path: paths.pkcs12, password: DevCertificates.pkcs12Password, wwdrPath: nil)
            #expect(identity.certificate == (try Certificate.load(path: paths.certificate)))
            #expect(identity.wwdr == (try Certificate.load(path: paths.wwdr)))
        }
    }

    @Test("an unwritable location fails with the path in the message")
    func unwritable() throws {
        try withTemporaryDirectory { directory in
            let blocker = directory + "/file"
            try TestSupport.write([1], to: blocker)
            let error = #expect(throws: SigningError.self) { try DevCertificates.generate(directory: blocker) }
            #expect(error?.description.contains(blocker) == true)
        }
    }
}
