import Foundation
import Testing
@testable import PassStore
import PassMintTestSupport
import PassSigning

@Suite("GoogleWalletStore (SQLite and PostgreSQL)")
struct GoogleStoreTests {
    static let issuer = "3388000000022000000"

    /// Stores `serials` and links each to a Google object.
    private func linked(_ f: StoreFixture, _ serials: [String]) throws {
        try f.store.insertPasses(serials.map { samplePass($0) })
        let count = try f.store.linkGoogleObjects(
            serials.map { GoogleObjectLink(serialNumber: $0, objectID: "\(Self.issuer).\($0)") }, queue: false)
        #expect(count == serials.count)
    }

    private func claim(_ f: StoreFixture, lease: TimeInterval = 30) throws -> [GoogleJob] {
        try f.store.claimDueGoogleJobs(limit: 100, now: f.clock.now, lease: lease)
    }

    @Test(
        "a new version of a linked pass queues one object row; an unlinked pass queues none",
        arguments: StoreBackend.all)
    func versionsQueue(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try linked(f, ["G1"])
        try f.store.insertPasses([samplePass("A1")])
        #expect(try f.store.googleOutboxDepth() == 0, "linking alone queues nothing")
        #expect(
            try f.store.linkGoogleObjects([GoogleObjectLink(serialNumber: "nope", objectID: "x.y")], queue: true) == 0)

        _ = try f.store.updateRecord(serial: "G1", record: ["tier": "Gold"])
        _ = try f.store.updateRecord(serial: "A1", record: ["tier": "Gold"])
        #expect(try f.store.googleOutboxDepth() == 1)
        // A second change while the row waits unclaimed rides along with it.
        _ = try f.store.modifyPass(serial: "G1") {
            PassModification(record: $0.record.merging(["points": "11"]) { $1 })
        }
        #expect(try f.store.googleOutboxDepth() == 1)
        let jobs = try claim(f)
        #expect(jobs.map(\.kind) == [.object])
        #expect(jobs.map(\.subject) == ["G1"])
        #expect(jobs.first?.inDoubt == false)
        // Claimed: it may already be sending the older state, so the next change gets a row of its own.
        _ = try f.store.updateRecord(serial: "G1", record: ["tier": "Platinum"])
        #expect(try f.store.googleOutboxDepth() == 2)
        // Bulk changes and re-issues are versions too (the trigger sees every writer).
        for job in try claim(f) + jobs { try f.store.completeGoogleJob(id: job.id, delivery: nil) }
        _ = try f.store.applyChanges([PassChange(serialNumber: "G1", voided: true)], progress: nil)
        #expect(try f.store.googleOutboxDepth() == 1)
        for job in try claim(f) { try f.store.completeGoogleJob(id: job.id, delivery: nil) }
        _ = try f.store.reissuePasses([samplePass("G1")])
        #expect(try claim(f).map(\.subject) == ["G1"])
        // Linking with `queue` writes the object at once.
        try f.store.insertPasses([samplePass("G2")])
        try f.store.linkGoogleObjects(
            [GoogleObjectLink(serialNumber: "G2", objectID: "\(Self.issuer).G2")], queue: true)
        #expect(try claim(f).map(\.subject) == ["G2"])
    }

    @Test(
        "a claim whose lease ran out without an answer comes back in doubt; a retry does not",
        arguments: StoreBackend.all)
    func inDoubt(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try linked(f, ["G1", "G2"])
        _ = try f.store.updateRecord(serial: "G1", record: ["tier": "Gold"])
        _ = try f.store.updateRecord(serial: "G2", record: ["tier": "Gold"])
        let first = try claim(f, lease: 30)
        #expect(first.count == 2)
        #expect(try claim(f).isEmpty, "leased rows are not claimed twice")
        try f.store.retryGoogleJob(id: first[1].id, at: f.clock.now.addingTimeInterval(5), reason: "HTTP 503")
        f.clock.advance(31)
        let second = try claim(f)
        #expect(second.map(\.id) == first.map(\.id))
        #expect(second.map(\.inDoubt) == [true, false])
        #expect(second.map(\.attempts) == [0, 1])
        try f.store.advanceGoogleJob(id: second[0].id, to: .objectWritten)
        f.clock.advance(31)
        let third = try claim(f)
        #expect(third.first { $0.id == second[0].id }?.step == .objectWritten)
    }

    @Test("completing records the delivered version, the notice or the silent update", arguments: StoreBackend.all)
    func deliveries(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try linked(f, ["G1"])
        #expect(try f.store.googleObject(serial: "G1")?.inserted == false)
        #expect(try f.store.googleObject(serial: "G1")?.deliveredTag == nil)
        for (tag, announcement) in [(Int64(7), GoogleDelivery.Announcement.notified), (9, .silenced), (8, .none)] {
            _ = try f.store.updateRecord(serial: "G1", record: ["tier": "T\(tag)"])
            let job = try #require(try claim(f).first)
            try f.store.completeGoogleJob(
                id: job.id,
                delivery: GoogleDelivery(
                    serialNumber: "G1", tag: tag, record: ["tier": "T\(tag)"], announcement: announcement,
                    at: f.clock.now))
            f.clock.advance(3600)
        }
        let state = try #require(try f.store.googleObject(serial: "G1"))
        #expect(state.inserted)
        #expect(state.deliveredTag == 9, "an older delivery finishing late does not move it back")
        #expect(state.deliveredRecord == ["tier": "T9"])
        #expect(state.silentUpdates == 1)
        #expect(try f.store.googleNotices(serial: "G1", since: f.clock.now.addingTimeInterval(-86_400)) == 1)
        #expect(try f.store.googleNotices(serial: "G1", since: f.clock.now) == 0)
        #expect(try f.store.installReport(InstallStatsQuery()).totals.first?.google.silentUpdates == 1)
        #expect(try f.store.googleOutboxDepth() == 0)
    }

    @Test("publishing a template queues its class, claimed before object rows", arguments: StoreBackend.all)
    func classes(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try linked(f, ["G1"])
        _ = try f.store.updateRecord(serial: "G1", record: ["tier": "Gold"])
        let version = TemplateVersion(files: ["pass.json": Array("{}".utf8)])
        _ = try f.templates.storeTemplateVersion(version)
        try f.templates.publishTemplate(name: "loyalty", digest: version.digest, onlyIfUnpublished: false)
        // The same version again changes nothing; nothing more is queued.
        try f.templates.publishTemplate(name: "loyalty", digest: version.digest, onlyIfUnpublished: false)
        let jobs = try claim(f)
        #expect(jobs.map(\.kind) == [.templateClass, .object])
        #expect(jobs.first?.subject == "loyalty")
        let other = TemplateVersion(files: ["pass.json": Array("{ }".utf8)])
        _ = try f.templates.storeTemplateVersion(other)
        try f.templates.publishTemplate(name: "loyalty", digest: other.digest, onlyIfUnpublished: false)
        #expect(try claim(f).map(\.kind) == [.templateClass])
    }

    @Test("a callback counts once per nonce, in the figures of the object's template", arguments: StoreBackend.all)
    func callbacks(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try linked(f, ["G1", "G2"])
        func event(_ nonce: String, _ serial: String, _ kind: GoogleCallbackEvent.Kind) -> GoogleCallbackEvent {
            GoogleCallbackEvent(
                nonce: nonce, objectID: "\(Self.issuer).\(serial)", kind: kind,
                expiresAt: f.clock.now.addingTimeInterval(60), receivedAt: f.clock.now)
        }
        #expect(try f.store.recordGoogleCallback(event("n1", "G1", .save)) == .counted(template: "loyalty"))
        #expect(try f.store.recordGoogleCallback(event("n1", "G1", .save)) == .replay)
        #expect(try f.store.recordGoogleCallback(event("n2", "G2", .save)) == .counted(template: "loyalty"))
        #expect(try f.store.recordGoogleCallback(event("n3", "G2", .delete)) == .counted(template: "loyalty"))
        #expect(try f.store.recordGoogleCallback(event("n4", "unknown", .save)) == .unknownObject)
        #expect(try f.store.recordGoogleCallback(event("n4", "unknown", .save)) == .replay)
        let totals = try #require(try f.store.installReport(InstallStatsQuery()).totals.first)
        #expect(totals.google == GoogleInstallFigures(saved: 2, deleted: 1, active: 1, silentUpdates: 0))
        #expect(try f.store.googleObject(serial: "G1")?.saved == true)
        #expect(try f.store.googleObject(serial: "G2")?.saved == false)
        // Nonces are kept until their message expires (a replay after that fails the expiry check first).
        f.clock.advance(120)
        #expect(try f.store.recordGoogleCallback(event("n5", "G1", .delete)) == .counted(template: "loyalty"))
        #expect(try f.store.recordGoogleCallback(event("n1", "G1", .save)) == .counted(template: "loyalty"))
    }

    @Test("template files and pass images are found by the SHA-256 of their bytes", arguments: StoreBackend.all)
    func images(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        var pass = samplePass("P1")
        let photo: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 1, 2, 3]
        pass.images = ["thumbnail.png": photo]
        try f.store.insertPasses([pass])
        let logo: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 9, 9]
        _ = try f.templates.storeTemplateVersion(TemplateVersion(files: ["logo.png": logo, "pass.json": [123, 125]]))
        #expect(
            try f.store.publicImage(digest: SHA256Digest.hex(photo)) == PublicImage(path: "thumbnail.png", bytes: photo)
        )
        #expect(try f.store.publicImage(digest: SHA256Digest.hex(logo)) == PublicImage(path: "logo.png", bytes: logo))
        #expect(try f.store.publicImage(digest: SHA256Digest.hex([1, 2])) == nil)
        // URLs carry the first 32 hex digits.
        #expect(try f.store.publicImage(digest: String(SHA256Digest.hex(logo).prefix(32)))?.bytes == logo)
        #expect(try f.store.publicImage(digest: "zz") == nil)
    }

    @Test(
        "a pass stored with a Google object ID is linked in the insert's transaction; a re-issue queues it",
        arguments: StoreBackend.all)
    func linkedOnInsert(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        var pass = samplePass("G9")
        pass.googleObjectID = "\(Self.issuer).G9"
        try f.store.insertPasses([pass])
        let state = try #require(try f.store.googleObject(serial: "G9"))
        #expect(state.objectID == "\(Self.issuer).G9")
        #expect(state.template == "loyalty")
        #expect(state.deliveredRecord == pass.record, "the record the save link carried is the baseline")
        #expect(try f.store.googleOutboxDepth() == 0, "a new pass reaches Google through its save link")
        var again = pass
        again.record["tier"] = "Gold"
        _ = try f.store.reissuePasses([again])
        #expect(try claim(f).map(\.subject) == ["G9"])
        #expect(try f.store.googleObject(serial: "G9")?.deliveredRecord == pass.record)
    }
}
