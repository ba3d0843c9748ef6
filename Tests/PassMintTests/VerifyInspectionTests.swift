import Foundation
import PassSigning
import Testing

@testable import PassMint

@Suite("certs inspect: CertificateInspection")
struct VerifyInspectionTests {
    typealias Support = VerifyTestSupport

    @Test("PEM leaf with matching key, PEM intermediate with a foreign key, DER, .p12")
    func inspect() throws {
        try withTemporaryDirectory { directory in
            let dev = try DevCertificates.generate(
                directory: directory + "/dev", passTypeIdentifier: "pass.x.y",
                teamIdentifier: "TEAM123456", validDays: 30)
            let now = Date()
            let leaf = try CertificateInspection.inspect(path: dev.certificate, keyPath: dev.key, now: now)
            #expect(leaf.format == "PEM")
            let entry = try #require(leaf.entries.first)
            #expect(entry.role == CertificateInspection.Role.passType)
            #expect(entry.generation == .passMintDevelopment)
            #expect(entry.certificate.passTypeIdentifier == "pass.x.y")
            #expect((28...30).contains(leaf.daysToExpiry(entry.certificate)))
            #expect(leaf.key?.matches == true)
            #expect(leaf.key?.type == "RSA 2048")

            let wwdr = try CertificateInspection.inspect(path: dev.wwdr, keyPath: dev.key, now: now)
            #expect(wwdr.entries.first?.role == CertificateInspection.Role.intermediate)
            #expect(wwdr.key?.matches == false)
            #expect(wwdr.jsonValue["certificates"]?.arrayValue?.first?["teamIdentifier"] == .null)

            let der = directory + "/pass.cer"
            try Data(try Certificate.load(path: dev.certificate).derBytes).write(to: URL(fileURLWithPath: der))
            #expect(try CertificateInspection.inspect(path: der).format == "DER")

            let p12 = try CertificateInspection.inspect(path: dev.pkcs12, password: DevCertificates.pkcs12Password)
            #expect(p12.format == "PKCS#12")
            #expect(p12.entries.map(\.role) == [CertificateInspection.Role.passType, .intermediate])
            #expect(p12.jsonValue["certificates"]?.arrayValue?.count == 2)

            #expect(throws: PassMintError.self) {
                try CertificateInspection.inspect(path: dev.pkcs12, password: "wrong")
            }
            #expect(throws: PassMintError.self) {
                try CertificateInspection.inspect(path: directory + "/missing.pem")
            }
        }
    }
}
