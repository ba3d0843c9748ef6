import Foundation
import Testing
@testable import PassSigning
@testable import PassMint
@testable import PassStore
import PassArchive
@testable import PassHTTP
@testable import PassService
@testable import PassServer
import PassMintTestSupport

/// The pieces of an identity reload in process: the render cache's identity generations, the renderer's swap,
/// `ServiceRunner.reloadIdentity()` with files replaced on disk, and the signing certificate gauges.
@Suite("serve identity reload (in process)")
struct IdentityReloadTests {
    @Test("the render cache never hands out a body filed under another identity generation")
    func cacheGenerations() {
        let cache = RenderCache(maxEntries: 10, maxBytes: 1 << 20)
        cache.insert(serial: "A", tag: 1, body: ArchiveParts([1]), identityGeneration: 0)
        #expect(cache.body(serial: "A", tag: 1, identityGeneration: 0)?.count == 1)
        #expect(cache.body(serial: "A", tag: 1, identityGeneration: 1) == nil)
        // A render of the new identity replaces the old body of the same version; a late old one does not.
        cache.insert(serial: "A", tag: 1, body: ArchiveParts([2, 2]), identityGeneration: 1)
        cache.insert(serial: "A", tag: 1, body: ArchiveParts([3, 3, 3]), identityGeneration: 0)
        #expect(cache.body(serial: "A", tag: 1, identityGeneration: 1)?.count == 2)
        #expect(cache.body(serial: "A", tag: 1, identityGeneration: 0) == nil)
        cache.removeAll()
        #expect(cache.count == 0)
    }

    @Test("the signing certificate's expiry and an expiring flag that turns 1 within 30 days")
    func expiryGauges() {
        let metrics = Metrics()
        #expect(!metrics.render(registrations: nil, outboxDepth: nil).contains("passmint_signing_certificate"))
        let notAfter = Date(timeIntervalSince1970: 2_000_000_000)
        metrics.setSigningCertificate(notAfter: notAfter)
        let early = metrics.render(
            registrations: nil, outboxDepth: nil, now: notAfter.addingTimeInterval(-31 * 86_400))
        #expect(early.contains("# TYPE passmint_signing_certificate_expiry_timestamp_seconds gauge\n"))
        #expect(early.contains("passmint_signing_certificate_expiry_timestamp_seconds 2000000000\n"))
        #expect(early.contains("# TYPE passmint_signing_certificate_expiring gauge\n"))
        #expect(early.contains("passmint_signing_certificate_expiring 0\n"))
        let late = metrics.render(registrations: nil, outboxDepth: nil, now: notAfter.addingTimeInterval(-29 * 86_400))
        #expect(late.contains("passmint_signing_certificate_expiring 1\n"))
    }

    @Test("reloadIdentity: a renewed identity replaces the renderer's; another team's is refused and changes nothing")
    func reload() throws {
        let tmp = try TempDir()
        let current = tmp.path("current")
        try FileManager.default.createDirectory(atPath: current, withIntermediateDirectories: true)
        func install(_ paths: DevCertificatePaths) throws {
            for (source, name) in [
                (paths.certificate, "pass-cert.pem"), (paths.key, "pass-key.pem"), (paths.wwdr, "wwdr.pem"),
            ] {
                try? FileManager.default.removeItem(atPath: current + "/" + name)
                try FileManager.default.copyItem(atPath: source, toPath: current + "/" + name)
            }
        }
        let first = try DevCertificates.generate(directory: tmp.path("A"))
        let renewed = try DevCertificates.generate(directory: tmp.path("B"))
        let otherTeam = try DevCertificates.generate(directory: tmp.path("C"), teamIdentifier: "OTHERTEAM9")
        try install(first)
        let runner = try ServiceRunner(
            options: .init(
                store: .sqlite(path: tmp.path("store.db")), configuration: .init(), apnsURL: "https://127.0.0.1:9",
                apnsCAFile: nil, identity: IdentityOptions(defaultDirectory: current)),
            environment: [:])
        let original = runner.renderer.identity.certificate
        #expect(runner.renderer.identityGeneration == 0)

        try install(otherTeam)
        let refusal = try #require(throws: ServerError.self) { try runner.reloadIdentity() }
        #expect(refusal.description.contains("OTHERTEAM9"))
        #expect(runner.renderer.identity.certificate == original)
        #expect(runner.renderer.identityGeneration == 0)

        try install(renewed)
        #expect(try runner.reloadIdentity().isEmpty)
        #expect(runner.renderer.identity.certificate == (try Certificate.load(path: renewed.certificate)))
        #expect(runner.renderer.identityGeneration == 1)
        let rendered = try runner.renderer.renderSigned(
            StoredPass(
                serialNumber: "R1", passTypeIdentifier: DevIdentity.passTypeIdentifier,
                templatePath: PackagePaths.template("status"), record: [:],
                authenticationToken: String(repeating: "a", count: 32)))
        #expect(rendered.identityGeneration == 1)
        #expect(rendered.body.count > 0)
    }
}
