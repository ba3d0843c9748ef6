import Foundation
import Testing

@testable import PassSigning

@Suite("SigningIdentity")
struct SigningIdentityTests {
    @Test("PEM certificate, key and WWDR load into one identity")
    func loadsPEM() throws {
        try withTemporaryDirectory { directory in
            let paths = try TestSupport.devChain(in: directory)
            let identity = try SigningIdentity.load(
                certificatePath: paths.certificate, keyPath: paths.key, wwdrPath: paths.wwdr, keyPassword: nil)
            #expect(identity.certificate.passTypeIdentifier == "pass.test.passmint")
            #expect(identity.wwdr.commonName == "PassMint Development WWDR")
        }
    }

    @Test("a key from another certificate is refused, naming both files")
    func keyMismatch() throws {
        try withTemporaryDirectory { directory in
            let first = try TestSupport.devChain(in: directory + "/a")
            let second = try TestSupport.devChain(in: directory + "/b", other: true)
            let expected = SigningError.keyMismatch(certificatePath: first.certificate, keyPath: second.key)
            let error = #expect(throws: expected) {
                try SigningIdentity.load(
                    certificatePath: first.certificate, keyPath: second.key, wwdrPath: first.wwdr, keyPassword: nil)
            }
            #expect(error?.description.contains(first.certificate) == true)
            #expect(error?.description.contains(second.key) == true)
        }
    }

    @Test("a WWDR that did not issue the certificate is refused")
    func wrongIntermediate() throws {
        try withTemporaryDirectory { directory in
            let first = try TestSupport.devChain(in: directory + "/a")
            let second = try TestSupport.devChain(in: directory + "/b", other: true)
            let error = #expect(throws: SigningError.self) {
                try SigningIdentity.load(
                    certificatePath: first.certificate, keyPath: first.key, wwdrPath: second.wwdr, keyPassword: nil)
            }
            guard case .wrongIntermediate(let wwdrPath, let certificatePath, _)? = error else {
                Issue.record("unexpected \(String(describing: error))")
                return
            }
            #expect(wwdrPath == second.wwdr && certificatePath == first.certificate)
        }
    }

    @Test("a legacy (RC2/3DES) .p12 made by `openssl pkcs12 -export -legacy` loads")
    func legacyPKCS12() throws {
        try withTemporaryDirectory { directory in
            let paths = try TestSupport.devChain(in: directory)
            let p12 = directory + "/legacy.p12"
            let export = try TestSupport.openssl([
                "pkcs12", "-export", "-legacy", "-in", paths.certificate, "-inkey", paths.key,
                "-certfile", paths.wwdr, "-passout", "pass:legacy-pw", "-out", p12,
            ])
            try #require(export.status == 0, "\(export.stderr)")
            let info = try TestSupport.openssl([
                "pkcs12", "-legacy", "-in", p12, "-info", "-noout", "-passin",
                "pass:legacy-pw",
            ])
            #expect((info.stdout + info.stderr).contains("RC2") || (info.stdout + info.stderr).contains("3-key"))

            let identity = try SigningIdentity.load(pkcs12Path: p12, password: "legacy-pw", wwdrPath: nil)
            #expect(identity.certificate == (try Certificate.load(path: paths.certificate)))
            #expect(identity.wwdr == (try Certificate.load(path: paths.wwdr)))
            let signature = try PassSigner(identity: identity).sign(Array("{}".utf8))
            #expect(try SignatureReport.inspect(signature: signature, content: Array("{}".utf8)).digestValid)
        }
    }

    @Test("a wrong .p12 password gives a clear error without the password")
    func wrongPassword() throws {
        try withTemporaryDirectory { directory in
            let paths = try TestSupport.devChain(in: directory)
            let error = #expect(throws: SigningError.wrongPassword(path: paths.pkcs12)) {
                try SigningIdentity.load(pkcs12Path: paths.pkcs12, password: "not-the-password", wwdrPath: nil)
            }
            #expect(error?.description.contains(paths.pkcs12) == true)
            #expect(error?.description.contains("not-the-password") == false)
        }
    }

    @Test("a .p12 without a CA certificate needs --wwdr")
    func missingWWDR() throws {
        try withTemporaryDirectory { directory in
            let paths = try TestSupport.devChain(in: directory)
            let p12 = directory + "/bare.p12"
            let export = try TestSupport.openssl([
                "pkcs12", "-export", "-in", paths.certificate, "-inkey", paths.key, "-passout", "pass:pw", "-out", p12,
            ])
            try #require(export.status == 0, "\(export.stderr)")
            let error = #expect(throws: SigningError.missingWWDR(pkcs12Path: p12)) {
                try SigningIdentity.load(pkcs12Path: p12, password: "pw", wwdrPath: nil)
            }
            #expect(error?.description.contains("WWDR intermediate") == true)
            let identity = try SigningIdentity.load(pkcs12Path: p12, password: "pw", wwdrPath: paths.wwdr)
            #expect(identity.wwdr.issuerOrganizationalUnit == nil)
            #expect(identity.certificate.issuerOrganizationalUnit == "G4")
        }
    }

    @Test("a file that is not a .p12 is refused")
    func notPKCS12() throws {
        try withTemporaryDirectory { directory in
            let paths = try TestSupport.devChain(in: directory)
            let error = #expect(throws: SigningError.self) {
                try SigningIdentity.load(pkcs12Path: paths.certificate, password: "x", wwdrPath: nil)
            }
            guard case .invalidPKCS12(let path, _)? = error else {
                Issue.record("unexpected \(String(describing: error))")
                return
            }
            #expect(path == paths.certificate)
        }
    }

    @Test("PKCS12Bundle exposes certificate, key and extras; the identity hands out PEM for TLS clients")
    func bundleAndPEM() throws {
        try withTemporaryDirectory { directory in
            let paths = try TestSupport.devChain(in: directory)
            let bundle = try PKCS12Bundle.load(path: paths.pkcs12, password: DevCertificates.pkcs12Password)
            #expect(bundle.key.matches(bundle.certificate))
            #expect(bundle.extraCertificates == [try Certificate.load(path: paths.wwdr)])
            let identity = try SigningIdentity.load(
                certificatePath: paths.certificate, keyPath: paths.key, wwdrPath: paths.wwdr, keyPassword: nil)
            #expect(try Certificate(pem: identity.certificate.pemBytes) == identity.certificate)
            let pem = identity.privateKeyPEM()
            #expect(String(decoding: pem, as: UTF8.self).hasPrefix("-----BEGIN PRIVATE " + "KEY-----"))
            #expect(try PrivateKey(pem: pem, password: nil).matches(identity.certificate))
        }
    }
}
