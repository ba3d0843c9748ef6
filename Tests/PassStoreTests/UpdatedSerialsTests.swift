import Foundation
import Testing
@testable import PassStore
import PassMintTestSupport

@Suite("PassStore.updatedSerials (SQLite and PostgreSQL)")
struct UpdatedSerialsTests {
    let type = "pass.com.example.loyalty"

    @Test(
        "lists every serial changed after the tag, only this device's, with the newest tag",
        arguments: StoreBackend.all)
    func listsChangedSince(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try f.store.insertPasses(["A", "B", "C", "D"].map { samplePass($0) })
        for serial in ["A", "B", "C"] {
            _ = try f.store.register(device: "d1", passType: type, serial: serial, pushToken: "aa", tag: 1)
        }
        _ = try f.store.register(device: "d2", passType: type, serial: "D", pushToken: "bb", tag: 1)

        let all = try #require(try f.store.updatedSerials(device: "d1", passType: type, since: nil))
        #expect(Set(all.serials) == ["A", "B", "C"])
        let c = try #require(try f.store.pass(serial: "C"))
        #expect(all.lastUpdated == c.tag)

        let a = try f.store.updateRecord(serial: "A", record: ["tier": "Gold"]).pass
        let b = try f.store.updateRecord(serial: "B", record: ["tier": "Gold"]).pass
        _ = try f.store.updateRecord(serial: "D", record: ["tier": "Gold"])

        let since = try #require(try f.store.updatedSerials(device: "d1", passType: type, since: all.lastUpdated))
        #expect(since.serials == ["A", "B"])
        #expect(since.lastUpdated == b.tag)

        let afterA = try #require(try f.store.updatedSerials(device: "d1", passType: type, since: a.tag))
        #expect(afterA.serials == ["B"])
    }

    @Test("204 cases: nothing changed, no registrations, other pass type", arguments: StoreBackend.all)
    func emptyCases(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try f.store.insertPasses([samplePass("A")])
        _ = try f.store.register(device: "d1", passType: type, serial: "A", pushToken: "aa", tag: 1)
        let all = try #require(try f.store.updatedSerials(device: "d1", passType: type, since: nil))
        #expect(try f.store.updatedSerials(device: "d1", passType: type, since: all.lastUpdated) == nil)
        #expect(try f.store.updatedSerials(device: "nobody", passType: type, since: nil) == nil)
        #expect(try f.store.updatedSerials(device: "d1", passType: "pass.other", since: nil) == nil)
    }

    @Test("list and register stay indexed (query plans use indexes, no full scans)")
    func queryPlansUseIndexes() throws {
        let f = try StoreFixture()
        let plans = try f.sqlite.pool.withConnection { db in
            try [
                "SELECT p.serial, p.tag FROM registrations r JOIN passes p ON p.serial = r.serial "
                    + "WHERE r.device = 'x' AND r.pass_type = 't' AND p.pass_type = 't' AND p.tag > 0",
                "SELECT d.push_token FROM registrations r JOIN devices d ON d.device_library_id = r.device "
                    + "WHERE r.serial = 's' AND r.pass_type = 't'",
                "SELECT id FROM push_outbox WHERE due_at <= 5 AND claimed_until <= 5 ORDER BY due_at, id LIMIT 5",
            ].map { sql in
                try db.withStatement("EXPLAIN QUERY PLAN " + sql) { s in
                    var details: [String] = []
                    while try s.step() { details.append(s.string(3)) }
                    return details.joined(separator: "; ")
                }
            }
        }
        for plan in plans {
            #expect(
                !plan.contains("SCAN r") && !plan.contains("SCAN p") && !plan.contains("SCAN push_outbox "),
                "full scan in: \(plan)")
        }
    }
}
