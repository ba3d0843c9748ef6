import Foundation
import PassArchive
import PassModel
import PassSigning
import Testing

@testable import PassMint

/// Signatures made with the openssl tool in odd shapes: no intermediate, the wrong one, a subject-key-identifier
/// signer, no signed attributes, a look-alike "Apple" intermediate.
@Suite("verify: signature and chain shapes")
struct VerifyChainTests {
    typealias Support = VerifyTestSupport

    /// Runs openssl in `directory`; throws with its stderr on a non-zero exit.
    private func openssl(_ arguments: [String], in directory: String) throws {
        try CLI.check("/usr/bin/openssl", arguments, cwd: URL(fileURLWithPath: directory))
    }

    /// A pass whose signature openssl makes from `manifest.json` with `signArguments`.
    private func pass(in directory: String, signArguments: [String]) throws -> [UInt8] {
        let files = Support.goodFiles()
        let manifest = Manifest.build(files.map { ($0.name, Manifest.sha1Hex($0.bytes)) })
        try Data(manifest).write(to: URL(fileURLWithPath: directory + "/manifest.json"))
        try openssl(
            ["cms", "-sign", "-binary", "-outform", "DER", "-in", "manifest.json", "-out", "signature"]
                + signArguments, in: directory)
        let signature = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "/signature")))
        return try ArchiveWriter.makeArchive(
            files + [
                ArchiveEntry(name: "manifest.json", bytes: manifest), ArchiveEntry(name: "signature", bytes: signature),
            ])
    }

    private func devChain(_ directory: String, _ name: String) throws -> DevCertificatePaths {
        try DevCertificates.generate(
            directory: directory + "/" + name,
            passTypeIdentifier: Support.passTypeIdentifier, teamIdentifier: Support.teamIdentifier)
    }

    /// A signature openssl makes in an odd shape: what it leaves out or adds, the code verify must report and
    /// one it must not.
    enum OddSignature: String, CaseIterable, Sendable {
        /// The signer only, no intermediate.
        case noIntermediate = "signer only, no intermediate: certificate.no-intermediate"
        /// The intermediate of another chain.
        case wrongIntermediate = "intermediate of another chain: certificate.wrong-intermediate"
        /// No signed attributes.
        case noSignedAttributes = "no signed attributes: signature.no-signing-time"

        var reported: ProblemCode {
            switch self {
            case .noIntermediate: "certificate.no-intermediate"
            case .wrongIntermediate: "certificate.wrong-intermediate"
            case .noSignedAttributes: "signature.no-signing-time"
            }
        }

        var notReported: ProblemCode {
            switch self {
            case .noIntermediate, .noSignedAttributes: "signature.invalid"
            case .wrongIntermediate: "certificate.no-intermediate"
            }
        }
    }

    @Test(
        "a signature in an odd shape is reported with its code, and not as another problem",
        arguments: OddSignature.allCases)
    func oddSignature(_ shape: OddSignature) throws {
        try withTemporaryDirectory { directory in
            let dev = try devChain(directory, "a")
            let signer = ["-signer", dev.certificate, "-inkey", dev.key]
            let arguments: [String] =
                switch shape {
                case .noIntermediate: signer
                case .wrongIntermediate: signer + ["-certfile", try devChain(directory, "b").wwdr]
                case .noSignedAttributes: signer + ["-certfile", dev.wwdr, "-noattr"]
                }
            let report = PassVerifier.verify(
                archive: try pass(in: directory, signArguments: arguments), name: "x.pkpass")
            #expect(report.codes.contains(shape.reported), "\(report.problems)")
            #expect(!report.codes.contains(shape.notReported), "\(report.problems)")
        }
    }

    @Test("subject key identifier signer (SignedData v3) verifies like issuer+serial")
    func subjectKeyIdentifier() throws {
        try withTemporaryDirectory { directory in
            let dev = try devChain(directory, "a")
            let bytes = try pass(
                in: directory,
                signArguments: [
                    "-signer", dev.certificate, "-inkey", dev.key, "-certfile", dev.wwdr,
                    "-keyid", "-md", "sha256",
                ])
            let report = PassVerifier.verify(archive: bytes, name: "x.pkpass")
            #expect(report.valid, "\(report.problems)")
            #expect(report.codes == ["certificate.not-apple"])
        }
    }

    @Test("an intermediate merely named like Apple's WWDR G4 is certificate.not-apple (an error)")
    func lookAlikeApple() throws {
        try withTemporaryDirectory { directory in
            let wwdrSubject = "/C=US/O=Apple Inc./OU=G4/CN=Apple Worldwide Developer Relations Certification Authority"
            try openssl(
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem",
                    "-days", "30", "-subj", wwdrSubject,
                    "-addext", "basicConstraints=critical,CA:TRUE",
                    "-addext", "keyUsage=critical,keyCertSign,cRLSign,digitalSignature",
                ], in: directory)
            try openssl(
                [
                    "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "leaf.key", "-out", "leaf.csr",
                    "-subj",
                    "/UID=\(Support.passTypeIdentifier)/CN=Pass Type ID: \(Support.passTypeIdentifier)"
                        + "/OU=\(Support.teamIdentifier)/O=Someone/C=US",
                ], in: directory)
            try openssl(
                [
                    "x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                    "-out", "leaf.pem", "-days", "30",
                ], in: directory)
            let bytes = try pass(
                in: directory,
                signArguments: ["-signer", "leaf.pem", "-inkey", "leaf.key", "-certfile", "ca.pem"])
            let report = PassVerifier.verify(archive: bytes, name: "x.pkpass")
            let notApple = try #require(report.problems.first { $0.code == "certificate.not-apple" })
            #expect(notApple.severity == .error)
            #expect(!report.isDevelopmentPass)
            #expect(!report.valid)
        }
    }

    @Test("WWDR generations: pinned fingerprints, names, development")
    func generations() throws {
        #expect(AppleWWDR.pinned.count == 3)
        #expect(Set(AppleWWDR.pinned.values) == [.g4, .g1, .g1Original])
        try withTemporaryDirectory { directory in
            let dev = try devChain(directory, "a")
            let leaf = try Certificate.load(path: dev.certificate)
            let wwdr = try Certificate.load(path: dev.wwdr)
            #expect(AppleWWDR.claimedGeneration(ofIssuerOf: leaf) == .passMintDevelopment)
            #expect(AppleWWDR.generation(ofIntermediate: wwdr) == .passMintDevelopment)
            #expect(AppleWWDR.isDevelopmentSigner(leaf))
            let root = try Certificate.load(path: dev.rootCA)
            #expect(AppleWWDR.generation(ofIntermediate: root) == .notApple)
        }
    }
}
