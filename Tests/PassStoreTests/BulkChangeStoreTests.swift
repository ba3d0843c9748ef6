import Foundation
import Testing
@testable import PassStore
import PassMintTestSupport

@Suite("BulkChangeStore: chunks with their outbox rows and progress (SQLite and PostgreSQL)")
struct BulkChangeStoreTests {
    let type = "pass.com.example.loyalty"

    /// Passes A…E, each registered on two devices of its own (`dA0`, `dA1`, …).
    func fixture(_ backend: StoreBackend) throws -> StoreFixture {
        let f = try StoreFixture(backend)
        try f.store.insertPasses(["A", "B", "C", "D", "E"].map { samplePass($0) })
        for serial in ["A", "B", "C", "D", "E"] {
            for i in 0..<2 {
                _ = try f.store.register(
                    device: "d\(serial)\(i)", passType: type, serial: serial, pushToken: "t\(serial)\(i)", tag: 1)
            }
        }
        return f
    }

    /// Makes every UPDATE of pass `serial` fail, as a database error in the middle of a chunk would.
    func failUpdates(of serial: String, in f: StoreFixture, backend: StoreBackend) throws {
        switch backend {
        case .sqlite:
            try f.sqlite.pool.withWriter { db in
                try db.execute(
                    """
                    CREATE TRIGGER fail_update BEFORE UPDATE ON passes WHEN NEW.serial = '\(serial)'
                    BEGIN SELECT RAISE(ABORT, 'refused by test trigger'); END;
                    """)
            }
        case .postgres:
            try (f.store as! PostgresStore).pool.withConnection { db in
                try db.execute(
                    """
                    CREATE FUNCTION fail_update() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN RAISE EXCEPTION 'refused by test trigger'; END $$;
                    CREATE TRIGGER fail_update BEFORE UPDATE ON passes FOR EACH ROW
                    WHEN (NEW.serial = '\(serial)') EXECUTE FUNCTION fail_update();
                    """)
            }
        }
    }

    @Test(
        "a chunk replaces what is given, keeps the rest, bumps tags and queues one row per device",
        arguments: StoreBackend.all)
    func appliesChunk(backend: StoreBackend) throws {
        let f = try fixture(backend)
        let before = try #require(try f.store.pass(serial: "A"))
        let tricky = #"say "hi", {x} \ back\slash"#
        f.clock.advance(5)
        let outcome = try f.store.applyChanges(
            [
                PassChange(serialNumber: "A", record: ["name": tricky, "tier": "Gold", "points": "10"]),
                PassChange(serialNumber: "B", templatePath: "Templates/status"),
                PassChange(serialNumber: "C", voided: true),
                PassChange(serialNumber: "missing", record: ["tier": "Gold"]),
            ], progress: nil)
        #expect(outcome == ChunkOutcome(passesChanged: 3, pushesQueued: 6))
        #expect(try f.store.outboxDepth() == 6)
        let a = try #require(try f.store.pass(serial: "A"))
        #expect(a.record == ["name": tricky, "tier": "Gold", "points": "10"])
        #expect(a.templatePath == "Templates/loyalty")
        #expect(a.tag > before.tag)
        #expect(a.modifiedAt > before.modifiedAt)
        let b = try #require(try f.store.pass(serial: "B"))
        #expect(b.templatePath == "Templates/status")
        #expect(b.record == samplePass("B").record)
        #expect(b.voided == false)
        let c = try #require(try f.store.pass(serial: "C"))
        #expect(c.voided == true)
        #expect(c.record == samplePass("C").record)
        #expect(Set([a.tag, b.tag, c.tag]).count == 3)
        let untouched = try #require(try f.store.pass(serial: "D"))
        #expect(untouched.tag < a.tag)
        // Each changed pass's devices see it in their list of updated serials.
        #expect(try f.store.updatedSerials(device: "dA0", passType: type, since: before.tag)?.serials == ["A"])
        #expect(try f.store.updatedSerials(device: "dD0", passType: type, since: untouched.tag) == nil)
        let queued = try f.store.claimDuePushes(limit: 100, now: f.clock.now, lease: 30)
        #expect(Set(queued.map(\.pushToken)) == ["tA0", "tA1", "tB0", "tB1", "tC0", "tC1"])
    }

    @Test("the position is recorded with the chunk and only then", arguments: StoreBackend.all)
    func recordsProgress(backend: StoreBackend) throws {
        let f = try fixture(backend)
        #expect(try f.store.bulkPosition(job: "job-1") == nil)
        _ = try f.store.applyChanges(
            [PassChange(serialNumber: "A", record: ["tier": "Gold"])], progress: BulkProgress(job: "job-1", position: 7)
        )
        #expect(try f.store.bulkPosition(job: "job-1") == 7)
        #expect(try f.store.bulkPosition(job: "job-2") == nil)
        // An empty chunk (every row unchanged) still moves the position.
        #expect(
            try f.store.applyChanges([], progress: BulkProgress(job: "job-1", position: 12))
                == ChunkOutcome(passesChanged: 0, pushesQueued: 0))
        #expect(try f.store.bulkPosition(job: "job-1") == 12)
        #expect(try f.store.outboxDepth() == 2)
        // Another store on the same database (a rerun, another instance) reads the same position.
        #expect(try f.secondStore().bulkPosition(job: "job-1") == 12)
    }

    @Test("a chunk that fails leaves no change, no outbox row and no progress", arguments: StoreBackend.all)
    func failedChunkIsAtomic(backend: StoreBackend) throws {
        let f = try fixture(backend)
        _ = try f.store.applyChanges([], progress: BulkProgress(job: "job", position: 1))
        try failUpdates(of: "C", in: f, backend: backend)
        #expect(throws: (any Error).self) {
            _ = try f.store.applyChanges(
                ["A", "B", "C"].map { PassChange(serialNumber: $0, record: ["tier": "Gold"]) },
                progress: BulkProgress(job: "job", position: 2))
        }
        #expect(try f.store.bulkPosition(job: "job") == 1)
        #expect(try f.store.outboxDepth() == 0)
        #expect(try f.store.pass(serial: "A")?.record == samplePass("A").record)
        #expect(try f.store.pass(serial: "B")?.record == samplePass("B").record)
    }

    @Test(
        "a device holding several changed passes gets one row; a pending row is not doubled",
        arguments: StoreBackend.all)
    func oneRowPerDevice(backend: StoreBackend) throws {
        let f = try fixture(backend)
        _ = try f.store.register(device: "shared", passType: type, serial: "D", pushToken: "tShared", tag: 1)
        _ = try f.store.register(device: "shared", passType: type, serial: "E", pushToken: "tShared", tag: 1)
        let first = try f.store.applyChanges(
            [
                PassChange(serialNumber: "D", record: ["tier": "Gold"]),
                PassChange(serialNumber: "E", record: ["tier": "Gold"]),
            ], progress: nil)
        #expect(first == ChunkOutcome(passesChanged: 2, pushesQueued: 5))
        // The rows are still unclaimed: the next chunk changing D again queues nothing new.
        let second = try f.store.applyChanges(
            [PassChange(serialNumber: "D", record: ["tier": "Silver"])], progress: nil)
        #expect(second == ChunkOutcome(passesChanged: 1, pushesQueued: 0))
        #expect(try f.store.outboxDepth() == 5)
    }

    @Test("the same serial twice in a chunk is applied once, later values winning", arguments: StoreBackend.all)
    func duplicateSerial(backend: StoreBackend) throws {
        let f = try fixture(backend)
        let outcome = try f.store.applyChanges(
            [
                PassChange(serialNumber: "A", record: ["tier": "Gold"]),
                PassChange(serialNumber: "A", voided: true),
                PassChange(serialNumber: "A", record: ["tier": "Platinum"]),
            ], progress: nil)
        #expect(outcome == ChunkOutcome(passesChanged: 1, pushesQueued: 2))
        let a = try #require(try f.store.pass(serial: "A"))
        #expect(a.record == ["tier": "Platinum"])
        #expect(a.voided)
    }

    @Test(
        "passes(after:) pages through every pass in serial order, optionally of one template",
        arguments: StoreBackend.all)
    func pages(backend: StoreBackend) throws {
        let f = try fixture(backend)
        var photo = samplePass("F")
        photo.templatePath = "Templates/status"
        photo.images = ["thumbnail.png": [1, 2, 3], "thumbnail@2x.png": [4, 5]]
        try f.store.insertPasses([photo])
        var seen: [String] = []
        var after: String?
        while true {
            let page = try f.store.passes(after: after, limit: 2, templatePath: nil)
            if page.isEmpty { break }
            #expect(page.count <= 2)
            seen += page.map(\.serialNumber)
            after = page.last?.serialNumber
        }
        #expect(seen == ["A", "B", "C", "D", "E", "F"])
        let status = try f.store.passes(after: nil, limit: 10, templatePath: "Templates/status")
        #expect(status.map(\.serialNumber) == ["F"])
        #expect(status.first?.images == photo.images)
        #expect(try f.store.passes(after: "F", limit: 10, templatePath: nil).isEmpty)
        let found = try f.store.passes(serials: ["F", "nope", "B"])
        #expect(Set(found.map(\.serialNumber)) == ["B", "F"])
        #expect(found.first { $0.serialNumber == "F" }?.images == photo.images)
        #expect(found.first { $0.serialNumber == "B" } == (try f.store.pass(serial: "B")))
        #expect(try f.store.passes(serials: []).isEmpty)
    }
}
