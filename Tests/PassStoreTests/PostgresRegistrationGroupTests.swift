import Foundation
import Synchronization
import Testing
@testable import PassStore
import PassMintTestSupport

/// PostgreSQL writes the registrations that arrive together as one statement: what that statement must keep
/// of the one-at-a-time semantics (outcomes, tokens, pending pushes, install figures), and that a bad
/// registration fails alone.
@Suite("PostgreSQL registration groups", .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresRegistrationGroupTests {
    let type = "pass.com.example.loyalty"

    private func store(_ clock: TestClock) throws -> PostgresStore {
        try PostgresStore(url: try PostgresTestServer.freshSchema(), poolSize: 4, now: clock.closure)
    }

    private func pending(_ device: String, _ serial: String, _ token: String) -> PendingRegistration {
        PendingRegistration(device: device, passType: type, serial: serial, pushToken: token, tag: 1)
    }

    /// Every row of the registration tables, in one comparable text per table.
    private func rows(_ store: PostgresStore) throws -> [String] {
        try store.pool.withConnection { db in
            try [
                "SELECT device || ' ' || pass_type || ' ' || serial FROM registrations ORDER BY 1",
                "SELECT device_library_id || ' ' || push_token FROM devices ORDER BY 1",
                "SELECT serial || ' ' || devices FROM install_passes ORDER BY 1",
                "SELECT template || ' ' || device || ' ' || passes FROM install_devices ORDER BY 1",
            ].map { sql in
                let result = try db.execute(sql)
                return (0..<result.rowCount).map { result.string($0, 0) }.joined(separator: "\n")
            }
        }
    }

    @Test("a group's outcomes, rows and install figures are those of the same registrations one at a time")
    func groupMatchesOneAtATime() throws {
        let clock = TestClock()
        let grouped = try store(clock), single = try store(clock)
        let passes = (0..<10).map { samplePass("P\($0)") }
        try grouped.insertPasses(passes)
        try single.insertPasses(passes)
        // Known before the group: devices d0-d4 on passes P0-P2. In the group, collisions on purpose: passes and
        // devices that go from none to several at once, a key twice, a device whose token changes within the group.
        for store in [grouped, single] {
            for i in 0..<5 {
                _ = try store.register(device: "d\(i)", passType: type, serial: "P\(i % 3)", pushToken: "old", tag: 1)
            }
        }
        var generator = SystemRandomNumberGenerator()
        var group: [PendingRegistration] = []
        for i in 0..<200 {
            let device = "d\(Int.random(in: 0..<40, using: &generator))"
            let token = i % 7 == 0 ? "b\(device)" : "a\(device)"
            group.append(pending(device, "P\(Int.random(in: 0..<10, using: &generator))", token))
        }
        grouped.writeRegistrations(group)
        var expected: [RegistrationOutcome] = []
        for registration in group {
            let copy = pending(registration.device, registration.serial, registration.pushToken)
            single.writeRegistrations([copy])
            expected.append(try copy.outcome!.get())
        }
        #expect(try group.map { try $0.outcome!.get() } == expected)
        #expect(expected.contains(.created) && expected.contains(.alreadyRegistered))
        // The device table keeps each device's newest token in both (the group applies them in order).
        #expect(try rows(grouped) == rows(single))
        #expect(try grouped.installDays(InstallStatsQuery()) == single.installDays(InstallStatsQuery()))
        #expect(try grouped.installTotals() == single.installTotals())
        let totals = try #require(try grouped.installTotals().first)
        #expect(totals.added == Set(group.map(\.serial)).union(["P0", "P1", "P2"]).count)
        #expect(totals.activeDevices == Set(group.map(\.device)).union((0..<5).map { "d\($0)" }).count)
    }

    @Test("a registration the database refuses fails alone; the rest of its group is written and counted")
    func badRegistrationFailsAlone() throws {
        let clock = TestClock()
        let store = try store(clock)
        try store.insertPasses([samplePass("A"), samplePass("B")])
        // Larger than a btree index entry may be, even compressed (random letters): PostgreSQL refuses the row.
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        let tooLong = String((0..<9000).map { _ in letters.randomElement()! })
        let group = [
            pending("d1", "A", "t1"), pending(tooLong, "A", "t2"), pending("d2", "B", "t3"), pending("d3", "A", "t4"),
        ]
        store.writeRegistrations(group)
        #expect(throws: StoreError.self) { try group[1].outcome!.get() }
        for index in [0, 2, 3] { #expect(try group[index].outcome!.get() == .created) }
        #expect(try store.updatedSerials(device: "d1", passType: type, since: nil)?.serials == ["A"])
        let totals = try #require(try store.installTotals().first)
        #expect(totals.added == 2)
        #expect(totals.activeDevices == 3)
    }

    @Test("a device's pending pushes follow it to the token it registers with in a group")
    func pendingPushesFollowNewToken() throws {
        let clock = TestClock()
        let store = try store(clock)
        try store.insertPasses([samplePass("A"), samplePass("B")])
        _ = try store.register(device: "d1", passType: type, serial: "A", pushToken: "first", tag: 1)
        #expect(try store.updateRecord(serial: "A", record: ["tier": "Gold"]).pushesQueued == 1)
        let group = [pending("d2", "A", "other"), pending("d1", "B", "second")]
        store.writeRegistrations(group)
        #expect(try group.map { try $0.outcome!.get() } == [.created, .created])
        let tokens = try store.pool.withConnection { db in
            let result = try db.execute("SELECT push_token FROM push_outbox ORDER BY id")
            return (0..<result.rowCount).map { result.string($0, 0) }
        }
        #expect(tokens == ["second"])
    }

    @Test("the registration statement looks rows up by key even while the tables are small (no full scan)")
    func indexedWhileSmall() throws {
        let clock = TestClock()
        let store = try store(clock)
        // A new program: a thousand passes, a few devices, statistics that say so (as `migrate` leaves them).
        try store.insertPasses((0..<1000).map { samplePass(String(format: "S%04d", $0)) })
        for i in 0..<20 {
            _ = try store.register(device: "d\(i)", passType: type, serial: "S0001", pushToken: "t\(i)", tag: 1)
        }
        let plan = try store.registrationPool.withConnection { db in
            try db.execute("ANALYZE")
            _ = try db.execute("PREPARE registration_plan AS " + PostgresStore.registrationStatement)
            defer { _ = try? db.execute("DEALLOCATE registration_plan") }
            let explained = try db.execute(
                """
                EXPLAIN EXECUTE registration_plan('{d1,n1}', '{\(type),\(type)}', '{S0002,S0003}', '{t1,u1}',
                    '1764600000', '0', '{1,1}')
                """)
            return (0..<explained.rowCount).map { explained.string($0, 0) }.joined(separator: "\n")
        }
        #expect(plan.contains("Index"))
        #expect(!plan.contains("Seq Scan"), "\(plan)")
    }

    @Test("two instances registering overlapping passes from many threads at once: no failure, exact figures")
    func concurrentInstances() throws {
        let clock = TestClock()
        let url = try PostgresTestServer.freshSchema()
        let stores = try (0..<2).map { _ in try PostgresStore(url: url, poolSize: 4, now: clock.closure) }
        let passes = (0..<20).map { samplePass("S\($0)") }
        try stores[0].insertPasses(passes)
        let failures = Mutex<[String]>([])
        let created = Atomic<Int>(0)
        let group = DispatchGroup()
        for thread in 0..<16 {
            let store = stores[thread % 2]
            group.enter()
            Thread {
                // Each thread walks the passes in its own order, so concurrent groups share passes in any order.
                for i in 0..<60 {
                    let serial = "S\((i * (thread + 3)) % 20)"
                    do {
                        if try store.register(
                            device: "t\(thread)-\(i % 30)", passType: type, serial: serial,
                            pushToken: "k\(thread)-\(i % 30)", tag: 1)
                            == .created
                        {
                            created.add(1, ordering: .relaxed)
                        }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
                group.leave()
            }.start()
        }
        group.wait()
        #expect(failures.withLock { $0 }.isEmpty)
        let rows = try rows(stores[1])
        let registrations = rows[0].split(separator: "\n").count
        #expect(created.load(ordering: .relaxed) == registrations)
        let counted = rows[2].split(separator: "\n").compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }
        #expect(counted.reduce(0, +) == registrations)
        let totals = try #require(try stores[1].installTotals().first)
        #expect(totals.added == 20)
        #expect(totals.activeDevices == 16 * 30)
    }
}
