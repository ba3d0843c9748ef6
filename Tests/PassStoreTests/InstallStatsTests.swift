import Foundation
import Synchronization
import Testing
@testable import PassStore
import PassMintTestSupport

/// A pass of template folder or reference `template`.
func pass(_ serial: String, _ template: String) -> StoredPass {
    var made = samplePass(serial)
    made.templatePath = template
    return made
}

let statsPassType = "pass.com.example.loyalty"
let loyalty = "Templates/loyalty"
private let event = "passmint-template:event@" + String(repeating: "ab12", count: 16)
private let coffee = "/srv/designs/Coffee.pkpasstemplate"

extension StoreFixture {
    /// Deletes the registrations of `pushToken` the way the pusher does when APNs calls the token dead: a push
    /// for `serial` is queued, claimed and dropped. Every other claimed push is abandoned.
    func dropDeadToken(_ pushToken: String, via serial: String) throws {
        _ = try store.updateRecord(serial: serial, record: ["points": "\(Int.random(in: 0..<1000))"])
        var dropped = false
        for job in try store.claimDuePushes(limit: 1000, now: clock.now, lease: 30) {
            if job.pushToken == pushToken, !dropped {
                try store.dropPush(id: job.id, deletingRegistrationsFor: pushToken, reason: "Unregistered")
                dropped = true
            } else {
                try store.abandonPush(id: job.id, reason: "not this test's")
            }
        }
        #expect(dropped, "no push was queued for \(pushToken)")
    }
}

@Suite("Install figures (SQLite and PostgreSQL)")
struct InstallStatsTests {
    @Test(
        "template names: the NAME of a versioned reference, else the folder's last component without suffix",
        arguments: [
            ("Templates/loyalty", "loyalty"), ("Templates/loyalty/", "loyalty"), ("loyalty", "loyalty"),
            ("/srv/designs/Coffee.pkpasstemplate", "Coffee"), ("in/Event.ZIP", "Event"),
            ("passmint-template:status@" + String(repeating: "0f", count: 32), "status"),
            ("passmint-template:a@b@cafe", "a@b"), ("/", "/"),
        ])
    func templateNames(template: String, expected: String) {
        #expect(InstallStats.templateName(template) == expected)
    }

    @Test("UTC days parse only real dates and print as YYYY-MM-DD")
    func days() {
        #expect(UTCDay("1970-01-01")?.number == 0)
        #expect(UTCDay("2024-02-29")?.description == "2024-02-29")
        #expect(UTCDay("2027-01-15") == UTCDay(Date(timeIntervalSince1970: 1_800_000_000)))
        #expect(UTCDay(seconds: -1).number == -1)
        for bad in ["2026-02-30", "2026-13-01", "2026-1-01", "26-01-01", "2026-01-01T00", "", "２０２６-01-01"] {
            #expect(UTCDay(bad) == nil, "\(bad)")
        }
        for number in stride(from: Int64(-719_000), through: 2_900_000, by: 997) {
            #expect(UTCDay(UTCDay(number: number).description)?.number == number)
        }
    }

    @Test(
        "a scripted week: issues, first and last devices, a pass losing both its devices, a dead token, re-registrations",
        arguments: StoreBackend.all)
    func scriptedWeek(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        let store = f.store
        let day0 = UTCDay(f.clock.now)
        // Day 0: three passes, one stored again (no new issue); d1 and d2 on L1, d1 on L2 as well.
        try store.insertPasses([pass("L1", loyalty), pass("L2", loyalty), pass("E1", event)])
        try store.insertPasses([pass("L1", loyalty + "/")])
        #expect(
            try store.register(device: "d1", passType: statsPassType, serial: "L1", pushToken: "t1", tag: 1) == .created
        )
        #expect(
            try store.register(device: "d2", passType: statsPassType, serial: "L1", pushToken: "t2", tag: 1) == .created
        )
        #expect(
            try store.register(device: "d1", passType: statsPassType, serial: "L2", pushToken: "t1", tag: 1) == .created
        )
        #expect(
            try store.register(device: "d1", passType: statsPassType, serial: "L1", pushToken: "t1", tag: 1)
                == .alreadyRegistered)
        // Day 1: L1 loses d1 (d2 is left), then d2 (removed); d1 keeps L2, so it stays active.
        f.clock.advance(86_400)
        #expect(try store.unregister(device: "d1", passType: statsPassType, serial: "L1") != nil)
        #expect(try store.unregister(device: "d2", passType: statsPassType, serial: "L1") != nil)
        #expect(try store.unregister(device: "d2", passType: statsPassType, serial: "L1") == nil)
        // Day 2: two devices on E1.
        f.clock.advance(86_400)
        #expect(
            try store.register(device: "d3", passType: statsPassType, serial: "E1", pushToken: "t3", tag: 1) == .created
        )
        #expect(
            try store.register(device: "d4", passType: statsPassType, serial: "E1", pushToken: "t4", tag: 1) == .created
        )
        // Day 3: APNs calls both tokens dead, one after the other.
        f.clock.advance(86_400)
        try f.dropDeadToken("t3", via: "E1")
        try f.dropDeadToken("t4", via: "E1")
        #expect(try store.registrationsCount() == 1)
        // Day 4: d3 comes back to E1, d1 to L1; a Coffee pass is issued. Day 5 has nothing.
        f.clock.advance(86_400)
        #expect(
            try store.register(device: "d3", passType: statsPassType, serial: "E1", pushToken: "t3b", tag: 1)
                == .created)
        #expect(
            try store.register(device: "d1", passType: statsPassType, serial: "L1", pushToken: "t1", tag: 1) == .created
        )
        try store.insertPasses([pass("C1", coffee)])
        f.clock.advance(86_400)

        func day(_ template: String, _ offset: Int64, _ figures: (Int, Int, Int, Int)) -> InstallDay {
            InstallDay(
                template: template, day: UTCDay(number: day0.number + offset), issued: figures.0,
                added: figures.1, removed: figures.2, activeDevices: figures.3)
        }
        let expected = [
            day("Coffee", 4, (1, 0, 0, 0)),
            day("event", 0, (1, 0, 0, 0)), day("event", 2, (0, 1, 0, 2)), day("event", 3, (0, 0, 1, 0)),
            day("event", 4, (0, 1, 0, 1)),
            day("loyalty", 0, (2, 2, 0, 2)), day("loyalty", 1, (0, 0, 1, 1)), day("loyalty", 4, (0, 1, 0, 1)),
        ]
        #expect(try store.installDays(InstallStatsQuery()) == expected)
        // A range starting late still counts the devices that arrived before it.
        #expect(
            try store.installDays(InstallStatsQuery(from: UTCDay(number: day0.number + 2), template: "loyalty"))
                == [day("loyalty", 4, (0, 1, 0, 1))])
        #expect(
            try store.installDays(
                InstallStatsQuery(from: UTCDay(number: day0.number + 1), to: UTCDay(number: day0.number + 3)))
                == [expected[2], expected[3], expected[6]])
        #expect(
            try store.installTotals() == [
                InstallTotals(template: "Coffee", issued: 1, added: 0, removed: 0, activeDevices: 0),
                InstallTotals(template: "event", issued: 1, added: 2, removed: 1, activeDevices: 1),
                InstallTotals(template: "loyalty", issued: 2, added: 3, removed: 1, activeDevices: 1),
            ])
        let report = try store.installReport(InstallStatsQuery(to: UTCDay(number: day0.number + 3)))
        #expect(
            report.totals == [
                InstallTotals(template: "event", issued: 1, added: 1, removed: 1, activeDevices: 0),
                InstallTotals(template: "loyalty", issued: 2, added: 2, removed: 1, activeDevices: 1),
            ])
    }

    @Test(
        "migration 5 back-fills the figures of a store made before it, and later changes count on from there",
        arguments: StoreBackend.all)
    func backfill(backend: StoreBackend) throws {
        let clock = TestClock()
        let d = Int64(clock.now.timeIntervalSince1970)
        let rows = """
            INSERT INTO passes (serial, pass_type, template, record, auth_token, tag, modified_at)
            VALUES ('A', '\(statsPassType)', 'Templates/loyalty/', '{}', 'tok-a', 1, \(d)),
                ('B', '\(statsPassType)', '/srv/Coffee.pkpasstemplate', '{}', 'tok-b', 2, \(d + 86_400)),
                ('C', '\(statsPassType)', 'passmint-template:event@abc123', '{}', 'tok-c', 3, \(d));
            INSERT INTO devices (device_library_id, push_token, updated_at) VALUES ('d1', 't1', 0), ('d2', 't2', 0);
            INSERT INTO registrations (device, pass_type, serial, created_at)
            VALUES ('d1', '\(statsPassType)', 'A', \(d)), ('d2', '\(statsPassType)', 'A', \(d + 86_400)),
                ('d1', '\(statsPassType)', 'B', \(d + 2 * 86_400));
            """
        let directory = try TempDir()
        let store: any PassStore
        switch backend {
        case .sqlite:
            let path = directory.path("old.sqlite")
            do {
                let db = try SQLiteConnection(path: path, busyTimeoutMilliseconds: 1000)
                try db.execute(SQLiteSchema.migrations.prefix(3).map(\.sql).joined() + "PRAGMA user_version = 3;")
                try db.execute(rows)
            }
            store = try SQLiteStore(path: path, now: clock.closure)
        case .postgres:
            let url = try PostgresTestServer.freshSchema()
            do {
                let db = try PGConnection(url: url.connectionString, server: url.description)
                _ = try db.execute(PostgresSchema.migrations[0].sql)
                _ = try db.execute(
                    """
                    CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY,
                        applied_at TIMESTAMPTZ NOT NULL DEFAULT now());
                    INSERT INTO schema_migrations (version) VALUES (1);
                    """ + rows)
            }
            store = try PostgresStore(url: url, now: clock.closure)
        }
        let day0 = UTCDay(clock.now).number
        func row(_ template: String, _ offset: Int64, _ figures: (Int, Int, Int, Int)) -> InstallDay {
            InstallDay(
                template: template, day: UTCDay(number: day0 + offset), issued: figures.0, added: figures.1,
                removed: figures.2, activeDevices: figures.3)
        }
        #expect(
            try store.installDays(InstallStatsQuery()) == [
                row("Coffee", 1, (1, 0, 0, 0)), row("Coffee", 2, (0, 1, 0, 1)),
                row("event", 0, (1, 0, 0, 0)),
                row("loyalty", 0, (1, 1, 0, 1)), row("loyalty", 1, (0, 0, 0, 2)),
            ])
        // Both devices leave A three days later: one removal, and no device is left on loyalty (not -1, not 1).
        clock.advance(3 * 86_400)
        #expect(try store.unregister(device: "d1", passType: statsPassType, serial: "A") != nil)
        #expect(try store.unregister(device: "d2", passType: statsPassType, serial: "A") != nil)
        #expect(
            try store.installDays(InstallStatsQuery(from: UTCDay(number: day0 + 3))) == [
                row("loyalty", 3, (0, 0, 1, 0))
            ])
        // Storing A again is no new issue.
        try store.insertPasses([pass("A", loyalty)])
        #expect(try store.installTotals().first { $0.template == "loyalty" }?.issued == 1)
    }

    @Test(
        "migrate copies the figures to PostgreSQL, and the copy counts on from them",
        .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
    func transferKeepsFigures() throws {
        let source = try StoreFixture(.sqlite)
        try source.store.insertPasses([pass("L1", loyalty), pass("E1", event)])
        _ = try source.store.register(device: "d1", passType: statsPassType, serial: "L1", pushToken: "t1", tag: 1)
        _ = try source.store.register(device: "d2", passType: statsPassType, serial: "L1", pushToken: "t2", tag: 1)
        _ = try source.store.register(device: "d1", passType: statsPassType, serial: "E1", pushToken: "t1", tag: 1)
        let target = try PostgresStore(url: try PostgresTestServer.freshSchema(), now: source.clock.closure)
        _ = try StoreTransfer.copy(from: source.sqlite, to: target)
        #expect(try target.installDays(InstallStatsQuery()) == source.store.installDays(InstallStatsQuery()))
        source.clock.advance(86_400)
        for store in [source.store, target as any PassStore] {
            #expect(try store.unregister(device: "d1", passType: statsPassType, serial: "L1") != nil)
            #expect(try store.unregister(device: "d2", passType: statsPassType, serial: "L1") != nil)
        }
        #expect(try target.installDays(InstallStatsQuery()) == source.store.installDays(InstallStatsQuery()))
        #expect(
            try target.installTotals() == [
                InstallTotals(template: "event", issued: 1, added: 1, removed: 0, activeDevices: 1),
                InstallTotals(template: "loyalty", issued: 1, added: 1, removed: 1, activeDevices: 0),
            ])
    }

    @Test(
        "a scripted month of random registrations, unregistrations and dead tokens gives exactly the model's counts",
        arguments: StoreBackend.all)
    func scriptedMonth(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        let templates = [loyalty, event, coffee]
        var random = SplitMix(seed: 20_261_201)
        var model = RegistrationModel()
        var expected: [InstallDay] = []
        let devices = (0..<9).map { "device-\($0)" }
        var serials: [String] = []
        for _ in 0..<30 {
            var today = DayTally()
            // A few new passes most days, and now and then one stored again.
            for _ in 0..<random.next(3) {
                let serial = "P\(serials.count)"
                let template = templates[random.next(templates.count)]
                try f.store.insertPasses([pass(serial, template)])
                serials.append(serial)
                model.template[serial] = InstallStats.templateName(template)
                today.figures[InstallStats.templateName(template), default: (0, 0, 0)].issued += 1
            }
            if let again = serials.randomElement(using: &random), random.next(4) == 0 {
                try f.store.insertPasses([pass(again, templates[0])])
            }
            guard !serials.isEmpty else {
                f.clock.advance(86_400)
                continue
            }
            for _ in 0..<(4 + random.next(8)) {
                let device = devices[random.next(devices.count)]
                let serial = serials[random.next(serials.count)]
                switch random.next(10) {
                case 0..<6:
                    let outcome = try f.store.register(
                        device: device, passType: statsPassType, serial: serial, pushToken: "token-\(device)", tag: 1)
                    let change = model.change(adding: true, device, serial)
                    #expect((outcome == .created) == (change != nil))
                    if let change { today.count(change, template: model.template[serial]!) }
                case 6..<9:
                    let removed = try f.store.unregister(device: device, passType: statsPassType, serial: serial)
                    let change = model.change(adding: false, device, serial)
                    #expect((removed != nil) == (change != nil))
                    if let change { today.count(change, template: model.template[serial]!) }
                default:
                    guard let held = model.serials(of: device).first else { continue }
                    for gone in model.serials(of: device) {
                        if let change = model.change(adding: false, device, gone) {
                            today.count(change, template: model.template[gone]!)
                        }
                    }
                    try f.dropDeadToken("token-\(device)", via: held)
                }
            }
            let day = UTCDay(f.clock.now)
            for (name, figures) in today.figures.sorted(by: { $0.key < $1.key }) {
                expected.append(
                    InstallDay(
                        template: name, day: day, issued: figures.issued, added: figures.added,
                        removed: figures.removed, activeDevices: model.activeDevices(of: name)))
            }
            f.clock.advance(86_400)
        }
        #expect(try f.store.registrationsCount() == model.pairs.count)
        let sortedExpected = expected.sorted { ($0.template, $0.day) < ($1.template, $1.day) }
        #expect(try f.store.installDays(InstallStatsQuery()) == sortedExpected)
        let totals = try f.store.installTotals()
        for name in Set(model.template.values) {
            let total = try #require(totals.first { $0.template == name })
            #expect(total.activeDevices == model.activeDevices(of: name), "\(name)")
            #expect(total.issued == model.template.values.filter { $0 == name }.count)
        }
        #expect(sortedExpected.count > 40, "the script made too few events to say anything")
        #expect(sortedExpected.contains { $0.removed > 0 } && sortedExpected.contains { $0.added > 1 })
    }
}

/// The registrations a script made, as plain sets: the figures the store must arrive at.
private struct RegistrationModel {
    var pairs: Set<[String]> = []
    var template: [String: String] = [:]

    /// Adds or removes a registration; nil when that changes nothing, else which counts crossed zero.
    mutating func change(adding: Bool, _ device: String, _ serial: String) -> Change? {
        let passBefore = devices(of: serial)
        let deviceBefore = passes(of: device, template: template[serial]!)
        if adding {
            guard pairs.insert([device, serial]).inserted else { return nil }
        } else {
            guard pairs.remove([device, serial]) != nil else { return nil }
        }
        let passAfter = devices(of: serial)
        let deviceAfter = passes(of: device, template: template[serial]!)
        return Change(
            added: passBefore == 0 && passAfter > 0, removed: passBefore > 0 && passAfter == 0,
            deviceCountChanged: (deviceBefore == 0) != (deviceAfter == 0))
    }

    struct Change {
        var added, removed, deviceCountChanged: Bool
    }

    func devices(of serial: String) -> Int { pairs.filter { $0[1] == serial }.count }
    func passes(of device: String, template name: String) -> Int {
        pairs.filter { $0[0] == device && template[$0[1]] == name }.count
    }
    func serials(of device: String) -> [String] { pairs.filter { $0[0] == device }.map { $0[1] }.sorted() }
    func activeDevices(of name: String) -> Int { Set(pairs.filter { template[$0[1]] == name }.map { $0[0] }).count }
}

/// One day's figures per template, for the templates the store writes a row for: any pass or device event.
private struct DayTally {
    var figures: [String: (issued: Int, added: Int, removed: Int)] = [:]

    mutating func count(_ change: RegistrationModel.Change, template: String) {
        guard change.added || change.removed || change.deviceCountChanged else { return }
        figures[template, default: (0, 0, 0)].added += change.added ? 1 : 0
        figures[template, default: (0, 0, 0)].removed += change.removed ? 1 : 0
    }
}

/// A small deterministic generator, so a failing month can be replayed.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
