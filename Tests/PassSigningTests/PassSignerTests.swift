import Foundation
import Testing

@testable import PassSigning

@Suite("PassSigner")
struct PassSignerTests {
    static let manifest = Manifest.build([
        ("pass.json", "9639271ddb26c9cb5baba145eb1d1ebb36a031a1"),
        ("icon.png", "0296b01347b3173e98438a003b0e88986340b2d8"),
    ])

    @Test("the openssl CLI verifies the signature against the dev root")
    func opensslVerifies() throws {
        try withTemporaryDirectory { directory in
            let paths = try TestSupport.devChain(in: directory)
            let identity = try SigningIdentity.load(
                certificatePath: paths.certificate, keyPath: paths.key, wwdrPath: paths.wwdr, keyPassword: nil)
            let signature = try PassSigner(identity: identity).sign(Self.manifest)
            try TestSupport.write(signature, to: directory + "/signature")
            try TestSupport.write(Self.manifest, to: directory + "/manifest.json")

            let verify = try TestSupport.openssl([
                "cms", "-verify", "-binary", "-inform", "DER", "-in", directory + "/signature",
                "-content", directory + "/manifest.json", "-CAfile", paths.rootCA, "-purpose", "any",
                "-out", "/dev/null",
            ])
            #expect(verify.status == 0, "\(verify.stderr)")
            #expect(verify.stderr.contains("Verification successful"))

            try TestSupport.write(Self.manifest + [0x20], to: directory + "/tampered.json")
            let tampered = try TestSupport.openssl([
                "cms", "-verify", "-binary", "-inform", "DER", "-in", directory + "/signature",
                "-content", directory + "/tampered.json", "-CAfile", paths.rootCA, "-purpose", "any",
                "-out", "/dev/null",
            ])
            #expect(tampered.status != 0)
        }
    }

    @Test("the structure holds signingTime, SHA-256, both certificates and no S/MIME capabilities")
    func structure() throws {
        try withTemporaryDirectory { directory in
            let paths = try TestSupport.devChain(in: directory)
            let identity = try SigningIdentity.load(
                certificatePath: paths.certificate, keyPath: paths.key, wwdrPath: paths.wwdr, keyPassword: nil)
            try TestSupport.write(try PassSigner(identity: identity).sign(Self.manifest), to: directory + "/sig")
            let printed = try TestSupport.openssl([
                "cms", "-cmsout", "-print", "-inform", "DER", "-in",
                directory + "/sig",
            ])
            try #require(printed.status == 0, "\(printed.stderr)")
            let text = printed.stdout
            #expect(text.contains("signingTime"))
            #expect(text.contains("eContent: <ABSENT>"))
            #expect(text.contains("algorithm: sha256"))
            #expect(text.contains("CN=Pass Type ID: pass.test.passmint"))
            #expect(text.contains("CN=PassMint Development WWDR"))
            #expect(!text.contains("SMIME Capabilities") && !text.contains("SMIME-CAPS"))
            #expect(text.components(separatedBy: "d.certificate:").count - 1 == 2)
        }
    }

    @Test("SignatureReport reads PassSigner's output; changed content does not verify")
    func report() throws {
        try withTemporaryDirectory { directory in
            let paths = try TestSupport.devChain(in: directory)
            let identity = try SigningIdentity.load(pkcs12Path: paths.pkcs12, password: "passmint-dev", wwdrPath: nil)
            let signature = try PassSigner(identity: identity).sign(Self.manifest)
            let report = try SignatureReport.inspect(signature: signature, content: Self.manifest)
            #expect(report.digestValid)
            #expect(report.verificationError == nil)
            #expect(report.digestAlgorithm == "sha256")
            #expect(report.signer == identity.certificate)
            #expect(Set(report.embeddedCertificates) == [identity.certificate, identity.wwdr])
            #expect(report.signerCount == 1 && report.isDetached)
            let time = try #require(report.signingTime)
            #expect(abs(time.timeIntervalSinceNow) < 300)

            let bad = try SignatureReport.inspect(signature: signature, content: Self.manifest + [0x0A])
            #expect(!bad.digestValid)
            #expect(bad.verificationError?.isEmpty == false)
        }
    }

    @Test("one signer signs from several tasks at once")
    func concurrent() async throws {
        let directory = NSTemporaryDirectory() + "passsigning-tests-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let paths = try TestSupport.devChain(in: directory)
        let signer = PassSigner(
            identity: try SigningIdentity.load(
                certificatePath: paths.certificate, keyPath: paths.key, wwdrPath: paths.wwdr, keyPassword: nil))
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let content = Array("{\"n\":\(index)}".utf8)
                    let signature = try signer.sign(content)
                    return try SignatureReport.inspect(signature: signature, content: content).digestValid
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
    }
}
