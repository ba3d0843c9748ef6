import Foundation
import Testing

@testable import PassSigning

/// An identity Wallet would refuse for every pass is refused when it is loaded, with what to do.
@Suite("SigningIdentity: unusable certificates")
struct SigningIdentityUsabilityTests {
    @Test("an expired signing certificate is refused, naming the file and the date")
    func expired() throws {
        try withTemporaryDirectory { directory in
            let chain = try DevCertificates.makeChain(
                passTypeIdentifier: "pass.test.passmint", teamIdentifier: "TEAMTEST01", validDays: -2)
            let paths = try DevCertificates.write(chain, to: directory + "/dev")
            let error = #expect(throws: SigningError.self) {
                try SigningIdentity.load(
                    certificatePath: paths.certificate, keyPath: paths.key, wwdrPath: paths.wwdr, keyPassword: nil)
            }
            guard case .certificateExpired(let path, _)? = error else {
                Issue.record("unexpected \(String(describing: error))")
                return
            }
            #expect(path == paths.certificate)
            #expect(error?.description.contains("expired on ") == true)
            #expect(error?.description.contains("create a new Pass Type ID certificate") == true)
            // The .p12 of the same chain too.
            #expect(throws: SigningError.self) {
                try SigningIdentity.load(pkcs12Path: paths.pkcs12, password: "passmint-dev", wwdrPath: nil)
            }
        }
    }

    @Test("a certificate that is not valid yet is refused")
    func notYetValid() throws {
        let certificate = TestSupport.chains[0].leaf
        let before = certificate.notBefore.addingTimeInterval(-86_400)
        #expect(throws: SigningError.certificateNotYetValid(path: "c.pem", notBefore: certificate.notBefore)) {
            try SigningIdentity.checkUsable(certificate, name: "c.pem", now: before)
        }
    }

    @Test("a TLS certificate is not a Pass Type ID certificate")
    func tlsCertificate() throws {
        try withTemporaryDirectory { directory in
            let result = try TestSupport.run(
                "/usr/bin/openssl",
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", directory + "/key.pem", "-out",
                    directory + "/tls.pem", "-subj", "/CN=passes.example.com", "-days", "30",
                ])
            #expect(result.status == 0, "\(result.stderr)")
            let error = #expect(throws: SigningError.self) {
                try SigningIdentity.load(
                    certificatePath: directory + "/tls.pem", keyPath: directory + "/key.pem",
                    wwdrPath: directory + "/tls.pem", keyPassword: nil)
            }
            guard case .notPassTypeCertificate(let path, let subject)? = error else {
                Issue.record("unexpected \(String(describing: error))")
                return
            }
            #expect(path == directory + "/tls.pem" && subject.contains("passes.example.com"))
        }
    }

    @Test("a warning 30 days before the signing certificate expires, none long before")
    func expiryWarning() throws {
        let chain = TestSupport.chains[0]
        let identity = try SigningIdentity(certificate: chain.leaf, key: chain.leafKey, wwdr: chain.wwdr)
        let soon = try #require(identity.expiryWarning(now: chain.leaf.notAfter.addingTimeInterval(-5 * 86_400)))
        #expect(soon.contains("in 4 day(s)") || soon.contains("in 5 day(s)"), "\(soon)")
        #expect(soon.contains("renew it now"))
        #expect(identity.expiryWarning(now: chain.leaf.notAfter.addingTimeInterval(-40 * 86_400)) == nil)
    }
}
