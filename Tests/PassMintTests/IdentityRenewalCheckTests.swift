import Foundation
import PassMintTestSupport
import PassSigning
import Testing

@testable import PassMint

/// Each refusal of a renewed identity, with a second development identity of the same pass type and team as the
/// one the passes were issued with (`DevIdentity`), made by the same code as `passmint certs dev`.
@Suite("IdentityRenewalCheck")
struct IdentityRenewalCheckTests {
    static let team = (identifier: DevIdentity.teamIdentifier, source: "the certificate in use")

    /// A new development identity in `directory`.
    private func renewed(
        _ directory: String, passType: String = DevIdentity.passTypeIdentifier,
        team: String = DevIdentity.teamIdentifier, days: Int = 365
    ) throws -> SigningIdentity {
        let paths = try DevCertificates.generate(
            directory: directory, passTypeIdentifier: passType, teamIdentifier: team, validDays: days)
        return try SigningIdentity.load(
            certificatePath: paths.certificate, keyPath: paths.key, wwdrPath: paths.wwdr, keyPassword: nil)
    }

    @Test("a renewed certificate of the same pass type and team is accepted without a warning")
    func accepted() throws {
        try withTemporaryDirectory { directory in
            let identity = try renewed(directory)
            #expect(identity.certificate.serialNumberHex != DevIdentity.identity.certificate.serialNumberHex)
            let check = IdentityRenewalCheck(storedPassTypes: [DevIdentity.passTypeIdentifier], expectedTeam: Self.team)
            #expect(try check.check(identity, name: "new.pem") == [])
        }
    }

    @Test("a pass type in the store that the certificate is not for is refused, naming it")
    func passTypeNotCovered() throws {
        try withTemporaryDirectory { directory in
            let identity = try renewed(directory)
            let check = IdentityRenewalCheck(
                storedPassTypes: [DevIdentity.passTypeIdentifier, "pass.com.example.other", "pass.com.example.b"],
                expectedTeam: Self.team)
            let refusal = try #require(throws: IdentityRenewalCheck.Refusal.self) {
                try check.check(identity, name: "new.pem")
            }
            #expect(
                refusal
                    == .passTypeNotCovered(
                        certificate: "", certified: nil, uncovered: ["pass.com.example.b", "pass.com.example.other"]))
            #expect(refusal.description.contains("new.pem"))
            #expect(refusal.description.contains("pass.com.example.b, pass.com.example.other"))
            #expect(refusal.description.contains(DevIdentity.passTypeIdentifier))
        }
    }

    @Test("a certificate of another team is refused, naming both teams")
    func teamMismatch() throws {
        try withTemporaryDirectory { directory in
            let identity = try renewed(directory, team: "OTHERTEAM9")
            let check = IdentityRenewalCheck(storedPassTypes: [DevIdentity.passTypeIdentifier], expectedTeam: Self.team)
            let refusal = try #require(throws: IdentityRenewalCheck.Refusal.self) {
                try check.check(identity, name: "new.pem")
            }
            #expect(refusal == .teamMismatch(certificate: "", certified: nil, expected: "", source: ""))
            #expect(refusal.description.contains("OTHERTEAM9"))
            #expect(refusal.description.contains(DevIdentity.teamIdentifier))
            // Without a team to compare with, the same certificate passes.
            let unchecked = IdentityRenewalCheck(storedPassTypes: [DevIdentity.passTypeIdentifier], expectedTeam: nil)
            #expect(try unchecked.check(identity, name: "new.pem") == [])
        }
    }

    @Test("an expired or not yet valid certificate is refused; one expiring within 30 days is accepted with a warning")
    func validity() throws {
        try withTemporaryDirectory { directory in
            let identity = try renewed(directory, days: 10)
            let check = IdentityRenewalCheck(storedPassTypes: [DevIdentity.passTypeIdentifier], expectedTeam: Self.team)
            let warnings = try check.check(identity, name: "new.pem")
            #expect(warnings.count == 1)
            #expect(warnings.first?.contains("expires on") == true)
            let later = identity.certificate.notAfter.addingTimeInterval(86_400)
            let expired = try #require(throws: IdentityRenewalCheck.Refusal.self) {
                try check.check(identity, name: "new.pem", now: later)
            }
            #expect(expired == .notValidNow(certificate: "", notBefore: Date(), notAfter: Date()))
            #expect(expired.description.contains("new.pem"))
            let earlier = identity.certificate.notBefore.addingTimeInterval(-86_400)
            #expect(throws: IdentityRenewalCheck.Refusal.self) { try check.check(identity, name: "n", now: earlier) }
        }
    }

    @Test("an intermediate that is neither Apple's, PassMint's development one nor trusted is refused")
    func untrustedChain() throws {
        try withTemporaryDirectory { directory in
            try openssl(
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days",
                    "90", "-subj", "/C=US/O=Someone/CN=Someone Intermediate", "-addext",
                    "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
                ], in: directory)
            try openssl(
                [
                    "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "leaf.key", "-out", "leaf.csr", "-subj",
                    "/UID=\(DevIdentity.passTypeIdentifier)/CN=Pass Type ID: \(DevIdentity.passTypeIdentifier)"
                        + "/OU=\(DevIdentity.teamIdentifier)/O=Someone/C=US",
                ], in: directory)
            try openssl(
                [
                    "x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out",
                    "leaf.pem", "-days", "90",
                ], in: directory)
            let identity = try SigningIdentity.load(
                certificatePath: directory + "/leaf.pem", keyPath: directory + "/leaf.key",
                wwdrPath: directory + "/ca.pem", keyPassword: nil)
            let check = IdentityRenewalCheck(storedPassTypes: [DevIdentity.passTypeIdentifier], expectedTeam: Self.team)
            let refusal = try #require(throws: IdentityRenewalCheck.Refusal.self) {
                try check.check(identity, name: "leaf.pem")
            }
            #expect(refusal == .untrustedChain(certificate: "", intermediate: ""))
            #expect(refusal.description.contains("Someone Intermediate"))
            // The same chain is accepted once its root is trusted in place of Apple's.
            var trusting = check
            trusting.trust = try TrustRoots.load([directory + "/ca.pem"])
            #expect(try trusting.check(identity, name: "leaf.pem") == [])
        }
    }

    @Test("a key that does not belong to the new certificate is refused when the identity loads, naming both files")
    func keyMismatch() throws {
        try withTemporaryDirectory { directory in
            _ = try renewed(directory)
            let options = IdentityOptions(
                certificatePath: directory + "/pass-cert.pem", keyPath: DevIdentity.directory + "/pass-key.pem",
                wwdrPath: directory + "/wwdr.pem")
            let error = try #require(throws: PassMintError.self) { try options.load() }
            guard case .signing(.keyMismatch) = error else {
                Issue.record("expected a key mismatch, got \(error)")
                return
            }
            #expect(error.description.contains(directory + "/pass-cert.pem"))
            #expect(error.description.contains(DevIdentity.directory + "/pass-key.pem"))
        }
    }

    /// Runs /usr/bin/openssl in `directory`; fails the test on a non-zero exit.
    private func openssl(_ arguments: [String], in directory: String) throws {
        let result = try CLI.run("/usr/bin/openssl", arguments, cwd: URL(fileURLWithPath: directory))
        try #require(result.status == 0, "openssl \(arguments.joined(separator: " ")): \(result.stderr)")
    }
}
