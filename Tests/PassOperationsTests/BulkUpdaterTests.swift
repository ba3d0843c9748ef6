import Foundation
import Synchronization
import Testing
@testable import PassMint
@testable import PassStore
@testable import PassOperations
import PassMintTestSupport
import PassTemplates

/// The real template checks, counting the renders (a render check is meant to happen once per template and tier).
final class CountingChecker: BulkRecordChecker {
    let renderer = TemplateRenderer(identity: DevIdentity.identity)
    let renders = Atomic<Int>(0)

    func validate(_ pass: StoredPass, change: RecordChange) throws(OperationError) -> [String: String] {
        try renderer.validate(pass, change: change)
    }

    func renderKey(_ pass: StoredPass) -> String { renderer.renderKey(pass) }

    func renderCheck(_ pass: StoredPass) throws(OperationError) {
        renders.add(1, ordering: .relaxed)
        try renderer.renderCheck(pass)
    }
}

@Suite("BulkUpdater: rows validated, unchanged rows skipped, chunks resumable (SQLite and PostgreSQL)")
struct BulkUpdaterTests {
    static let loyalty = PackagePaths.root.appendingPathComponent("Templates/loyalty").path
    let type = "pass.com.example.loyalty"

    /// Passes P0…P(count-1) of the loyalty template, resolved like `batch` stores them, each on one device.
    func fixture(_ backend: StoreBackend, count: Int) throws -> (StoreFixture, CountingChecker) {
        let f = try StoreFixture(backend)
        let checker = CountingChecker()
        let blank = StoredPass(
            serialNumber: "P", passTypeIdentifier: type, templatePath: Self.loyalty, record: [:],
            authenticationToken: "token-0123456789abcdef0123456789abcdef")
        let record = try checker.validate(blank, change: RecordChange(values: ["tier": "Silver"]))
        try f.store.insertPasses(
            (0..<count).map { i in
                var pass = blank
                pass.serialNumber = "P\(i)"
                pass.record = record.merging(["points": String(i)]) { $1 }
                return pass
            })
        for i in 0..<count {
            _ = try f.store.register(device: "d\(i)", passType: type, serial: "P\(i)", pushToken: "t\(i)", tag: 1)
        }
        return (f, checker)
    }

    func csv(_ text: String, in f: StoreFixture) throws -> CSVBulkRows {
        let path = f.directory.path("rows-\(UUID().uuidString).csv")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return try CSVBulkRows(path: path)
    }

    @Test(
        "changed rows are stored with their pushes, unchanged ones bump nothing, bad ones fail alone",
        arguments: StoreBackend.all)
    func outcomes(backend: StoreBackend) throws {
        let (f, checker) = try fixture(backend, count: 6)
        let tagBefore = try #require(try f.store.pass(serial: "P1")?.tag)
        let report = f.directory.path("report.jsonl")
        let rows = try csv(
            """
            serialNumber,tier,points
            P0,Gold,
            P1,Silver,1
            P2,Gold,2
            P3,Diamond,3
            NOPE,Gold,1
            P4,,x
            P5,Gold,55

            """, in: f)
        let summary = try BulkUpdater(store: f.store, checker: checker).run(
            rows, options: .init(job: "j", chunkSize: 3), reportPath: report)
        #expect(summary.rows == 7 && summary.changed == 3 && summary.unchanged == 1 && summary.failed == 3)
        #expect(summary.pushesQueued == 3)
        #expect(summary.position == 8)
        #expect(summary.failures.map(\.line) == [5, 6, 7])
        #expect(summary.failures.map(\.column) == ["tier", "serialNumber", "points"])
        #expect(try f.store.pass(serial: "P1")?.tag == tagBefore)
        #expect(try f.store.pass(serial: "P5")?.record["points"] == "55")
        #expect(try f.store.pass(serial: "P0")?.record["points"] == "0", "an empty cell keeps the stored value")
        #expect(try f.store.outboxDepth() == 3)
        #expect(try f.store.bulkPosition(job: "j") == 8)
        // Three changed passes, all Gold of one template: one render check.
        #expect(checker.renders.load(ordering: .relaxed) == 1)
        let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 7)
        #expect(lines[0].contains(#""status":"changed""#) && lines[0].contains(#""pushes":1"#))
        #expect(lines[1].contains(#""status":"unchanged""#) && lines[1].contains(#""pushes":0"#))
    }

    @Test(
        "add:points columns and {\"add\": N} add to the stored value (twice in one chunk too); +10, an amount for a non-number and a result below the minimum fail with their column",
        arguments: StoreBackend.all)
    func amounts(backend: StoreBackend) throws {
        let (f, checker) = try fixture(backend, count: 5)
        let rows = try csv(
            """
            serialNumber,tier,points,add:points
            P1,,,10
            P1,Gold,,5
            P2,,+10,
            P3,,,-4
            P4,,7,3
            P0,,,x

            """, in: f)
        let summary = try BulkUpdater(store: f.store, checker: checker).run(rows, options: .init(job: "a"))
        #expect(summary.changed == 2 && summary.failed == 4, "\(summary.failures)")
        #expect(try f.store.pass(serial: "P1")?.record["points"] == "16")
        #expect(try f.store.pass(serial: "P1")?.record["tier"] == "Gold")
        let failures = Dictionary(uniqueKeysWithValues: summary.failures.map { ($0.line, $0) })
        #expect(failures[4]?.column == "points" && failures[4]?.problem?.description.contains("add:points") == true)
        #expect(
            failures[5]?.column == "add:points"
                && failures[5]?.problem?.description.contains("outside its bounds") == true)
        #expect(failures[6]?.problem?.description.contains("not both") == true)
        #expect(failures[7]?.column == "add:points")
        #expect(try f.store.pass(serial: "P3")?.record["points"] == "3", "a refused row changes nothing")
        let json = JSONLinesBulkRows(
            bytes: Array(
                #"{"serialNumber": "P2", "points": {"add": 2}}\#n{"serialNumber": "P2", "points": {"sub": 1}}"#.utf8),
            name: "body")
        let second = try BulkUpdater(store: f.store, checker: checker).run(json, options: .init(job: "b"))
        #expect(second.changed == 1 && second.failed == 1 && second.failures.first?.column == "points")
        #expect(try f.store.pass(serial: "P2")?.record["points"] == "4")
        let header = try #require(throws: OperationError.self) { try csv("serialNumber,add:\nP1,1\n", in: f) }
        guard case .bulkHeader(_, .amountWithoutField(2)) = header else {
            Issue.record("expected column 2 refused as add: without a field, got \(header)")
            return
        }
    }

    @Test("resume skips the rows the job committed; without resume they are unchanged", arguments: StoreBackend.all)
    func resumes(backend: StoreBackend) throws {
        let (f, checker) = try fixture(backend, count: 10)
        let text = "serialNumber,tier\n" + (0..<10).map { "P\($0),Gold" }.joined(separator: "\n") + "\n"
        var stops = 0
        let first = try BulkUpdater(store: f.store, checker: checker).run(
            try csv(text, in: f), options: .init(job: "j", chunkSize: 4),
            shouldStop: {
                stops += 1
                return true
            })
        #expect(first.interrupted && first.changed == 4 && first.position == 5 && stops == 1)
        #expect(try f.store.outboxDepth() == 4)
        let second = try BulkUpdater(store: f.store, checker: checker).run(
            try csv(text, in: f), options: .init(job: "j", resume: true, chunkSize: 4))
        #expect(second.resumedFrom == 5 && second.skipped == 4 && second.changed == 6 && !second.interrupted)
        #expect(try f.store.outboxDepth() == 10)
        let third = try BulkUpdater(store: f.store, checker: checker).run(
            try csv(text, in: f), options: .init(job: "j", chunkSize: 4))
        #expect(third.changed == 0 && third.unchanged == 10 && third.pushesQueued == 0)
        #expect(try f.store.outboxDepth() == 10)
    }

    @Test("update jobs' status is stored and read back", arguments: StoreBackend.all)
    func jobStatus(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        let store = f.store
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        var job = UpdateJobStatus(id: "abc", state: .queued, createdAt: at, updatedAt: at)
        try store.saveUpdateJob(job)
        #expect(try store.updateJob(id: "abc") == job)
        job.state = .done
        job.rows = 3
        job.changed = 1
        job.unchanged = 1
        job.failed = 1
        job.pushesQueued = 2
        job.failures = [.init(line: 3, column: "tier", message: #"bad "value""#)]
        job.updatedAt = at.addingTimeInterval(5)
        try store.saveUpdateJob(job)
        #expect(try store.updateJob(id: "abc") == job)
        #expect(try f.secondStore().updateJob(id: "abc") == job)
        #expect(try store.updateJob(id: "nope") == nil)
    }

    @Test("the job identity is the content's hash")
    func identity() throws {
        let dir = try TempDir()
        try "serialNumber,tier\nP0,Gold\n".write(toFile: dir.path("a.csv"), atomically: true, encoding: .utf8)
        try "serialNumber,tier\nP0,Gold\n".write(toFile: dir.path("b.csv"), atomically: true, encoding: .utf8)
        try "serialNumber,tier\nP0,Silver\n".write(toFile: dir.path("c.csv"), atomically: true, encoding: .utf8)
        let a = try BulkUpdater.jobIdentity(csvPath: dir.path("a.csv"))
        #expect(a == (try BulkUpdater.jobIdentity(csvPath: dir.path("b.csv"))))
        #expect(a != (try BulkUpdater.jobIdentity(csvPath: dir.path("c.csv"))))
        let digest = try CLI.run("sha256sum", [dir.path("a.csv")]).stdout.prefix(64)
        #expect(a == "update-csv:" + digest)
    }

    @Test("JSON Lines rows: scalars as text, null keeps, blank lines skipped, bad lines fail alone with their line")
    func jsonLines() throws {
        let text = """
            {"serialNumber": "A", "points": 12, "vip": true, "ratio": 1.5, "tier": null}\r

            [1, 2]
            {"serialNumber": "B", "tier": {"x": 1}}
            {"tier": "Gold"}
            {"serialNumber": "C", "tier": "Gold"}
            """
        let rows = JSONLinesBulkRows(bytes: Array(text.utf8), name: "body")
        var read: [BulkRow] = []
        while let row = try rows.nextRow() { read.append(row) }
        #expect(read.map(\.line) == [1, 3, 4, 5, 6])
        #expect(
            read[0] == BulkRow(line: 1, serialNumber: "A", values: ["points": "12", "vip": "true", "ratio": "1.5"]))
        #expect(read[1].problem == .notAnObject)
        #expect(read[2].column == "tier")
        #expect(read[3].column == "serialNumber")
        #expect(read[4] == BulkRow(line: 6, serialNumber: "C", values: ["tier": "Gold"]))
        #expect(
            JSONLinesBulkRows(bytes: Array(#"{"serialNumber": "toolong"}"#.utf8), name: "b", maxLineBytes: 10)
                .nextRowError != nil)
    }
}

extension JSONLinesBulkRows {
    /// The problem of the first row.
    fileprivate var nextRowError: BulkRowProblem? { (try? nextRow())??.problem }
}
