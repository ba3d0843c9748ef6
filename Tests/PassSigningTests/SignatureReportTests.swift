import Foundation
import Testing

@testable import PassSigning

@Suite("SignatureReport")
struct SignatureReportTests {
    @Test("a subject-key-identifier (v3) signature from `openssl cms -sign -keyid` is read")
    func keyIdentifierSigner() throws {
        try withTemporaryDirectory { directory in
            let paths = try TestSupport.devChain(in: directory)
            let content = Array("{\n  \"pass.json\" : \"abcd\"\n}".utf8)
            try TestSupport.write(content, to: directory + "/manifest.json")
            let sign = try TestSupport.openssl([
                "cms", "-sign", "-keyid", "-binary", "-outform", "DER", "-in", directory + "/manifest.json",
                "-signer", paths.certificate, "-inkey", paths.key, "-certfile", paths.wwdr,
                "-out", directory + "/signature",
            ])
            try #require(sign.status == 0, "\(sign.stderr)")
            let signature = try TestSupport.read(directory + "/signature")
            let printed = try TestSupport.openssl([
                "cms", "-cmsout", "-print", "-inform", "DER", "-in",
                directory + "/signature",
            ])
            #expect(printed.stdout.contains("subjectKeyIdentifier"))

            let report = try SignatureReport.inspect(signature: signature, content: content)
            #expect(report.digestValid, "\(report.verificationError ?? "")")
            #expect(report.signer?.passTypeIdentifier == "pass.test.passmint")
            #expect(report.signingTime != nil)
            #expect(report.embeddedCertificates.count == 2)
        }
    }

    @Test("a signature without the signer certificate parses but does not verify")
    func noCertificates() throws {
        try withTemporaryDirectory { directory in
            let paths = try TestSupport.devChain(in: directory)
            try TestSupport.write(Array("{}".utf8), to: directory + "/m")
            let sign = try TestSupport.openssl([
                "cms", "-sign", "-nocerts", "-binary", "-outform", "DER", "-in", directory + "/m",
                "-signer", paths.certificate, "-inkey", paths.key, "-out", directory + "/s",
            ])
            try #require(sign.status == 0, "\(sign.stderr)")
            let report = try SignatureReport.inspect(
                signature: TestSupport.read(directory + "/s"),
                content: Array("{}".utf8))
            #expect(report.signer == nil)
            #expect(report.embeddedCertificates.isEmpty)
            #expect(!report.digestValid)
            #expect(report.verificationError?.contains("signer certificate not found") == true)
        }
    }

    @Test("bytes that are not CMS throw")
    func notCMS() {
        let error = #expect(throws: SigningError.self) {
            try SignatureReport.inspect(signature: Array("not a signature".utf8), content: [])
        }
        guard case .invalidSignature? = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
    }

    @Test(
        "Apple's sample StoreCard signature verifies",
        .enabled(if: PackagePaths.hasFixtures, PackagePaths.noFixtures))
    func appleSample() throws {
        let file = try #require(PackagePaths.fixture("pkpass/apple-sample__StoreCard.pkpass"))
        let signature = try TestSupport.unzipEntry(file, "signature")
        let manifest = try TestSupport.unzipEntry(file, "manifest.json")
        let report = try SignatureReport.inspect(signature: signature, content: manifest)
        #expect(report.digestValid, "\(report.verificationError ?? "")")
        #expect(report.digestAlgorithm == "sha1")
        let signer = try #require(report.signer)
        #expect(signer.passTypeIdentifier == "pass.com.apple.devpubs.example")
        #expect(signer.teamIdentifier == "A93A5CM278")
        #expect(signer.hasPassTypeExtension && signer.hasPassEKU)
        #expect(report.signingTime != nil)
        let wwdr = try #require(report.embeddedCertificates.first { $0 != signer })
        #expect(signer.isIssued(by: wwdr))
        #expect(wwdr.commonName == "Apple Worldwide Developer Relations Certification Authority")
        #expect(!(try SignatureReport.inspect(signature: signature, content: manifest + [0x20])).digestValid)
    }

    @Test(
        "a G4-issued signer bundled with WWDR G1 verifies but its WWDR did not issue it",
        .enabled(if: PackagePaths.hasFixtures, PackagePaths.noFixtures))
    func wrongIntermediateSample() throws {
        let file = try #require(PackagePaths.fixture("pkpass/ueman__boarding_pass_ui.pkpass"))
        let report = try SignatureReport.inspect(
            signature: TestSupport.unzipEntry(file, "signature"),
            content: TestSupport.unzipEntry(file, "manifest.json"))
        #expect(report.digestValid, "\(report.verificationError ?? "")")
        let signer = try #require(report.signer)
        #expect(signer.passTypeIdentifier == "pass.com.kudit.generic")
        #expect(signer.issuerOrganizationalUnit == "G4")
        let others = report.embeddedCertificates.filter { $0 != signer }
        #expect(others.count == 1)
        #expect(others.allSatisfy { !signer.isIssued(by: $0) })
    }

    @Test(
        "Apple's sample Event signature verifies too",
        .enabled(if: PackagePaths.hasFixtures, PackagePaths.noFixtures))
    func appleEventSample() throws {
        let file = try #require(PackagePaths.fixture("pkpass/apple-sample__Event.pkpass"))
        let report = try SignatureReport.inspect(
            signature: TestSupport.unzipEntry(file, "signature"),
            content: TestSupport.unzipEntry(file, "manifest.json"))
        #expect(report.digestValid, "\(report.verificationError ?? "")")
        #expect(report.signer?.passTypeIdentifier == "pass.com.apple.devpubs.example")
        #expect(report.signer?.notAfter ?? Date() < Date())  // expired 2016
    }
}
