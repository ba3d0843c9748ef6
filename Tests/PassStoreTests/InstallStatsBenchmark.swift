import Foundation
import Synchronization
import Testing
@testable import PassStore
import PassMintTestSupport

/// The cost the install figures add to `register`, measured only when `PASSMINT_BENCH_REGISTER` is set (e.g. to
/// 20000): registrations per second from 8 threads, each a new device on one of 1,000 issued passes (so every one
/// is counted), on a SQLite store as migrated, beside the same calls on a store whose counting trigger was dropped:
/// exactly the register path before the figures (its Swift code is unchanged). Rounds alternate; the best of each
/// is printed. Never fails on timing.
@Suite("Install figures: register throughput (benchmark)", .serialized)
struct InstallStatsBenchmark {

    /// Registrations per second: `count` new devices on serials `serialPrefix` 0..999, from 8 threads.
    static func registerRate(_ f: StoreFixture, count: Int, serialPrefix: String, round: Int) throws -> Double {
        let start = ContinuousClock.now
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for i in stride(from: thread, to: count, by: 8) {
                do {
                    _ = try f.store.register(
                        device: "r\(round)-\(i)", passType: statsPassType, serial: "\(serialPrefix)\(i % 1000)",
                        pushToken: "t\(round)-\(i)", tag: 1)
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        return Double(count) / ((ContinuousClock.now - start) / .seconds(1))
    }
    static let count = Int(ProcessInfo.processInfo.environment["PASSMINT_BENCH_REGISTER"] ?? "")

    @Test(.enabled(if: count != nil, "set PASSMINT_BENCH_REGISTER=N to measure"))
    func registerThroughput() throws {
        let count = try #require(Self.count)
        let counted = try StoreFixture(.sqlite), before = try StoreFixture(.sqlite)
        for f in [counted, before] { try f.store.insertPasses((0..<1000).map { pass("I\($0)", loyalty) }) }
        try before.sqlite.pool.withWriter { try $0.execute("DROP TRIGGER install_registered") }
        var best = (counted: 0.0, before: 0.0)
        for round in 0..<3 {
            best.before = max(best.before, try Self.registerRate(before, count: count, serialPrefix: "I", round: round))
            best.counted = max(
                best.counted, try Self.registerRate(counted, count: count, serialPrefix: "I", round: round))
        }
        print(
            "register, \(count) new devices x 3 rounds, 8 threads, best round: with install figures "
                + "\(Int(best.counted))/s, before (trigger dropped) \(Int(best.before))/s, ratio "
                + String(format: "%.2f", best.counted / best.before))
        #expect(try counted.store.installTotals().first?.activeDevices == 3 * count)
        #expect(try before.store.installTotals().first?.activeDevices == 0)
    }

    /// PostgreSQL: register's one statement carries the counting CTEs, so there is no store without them; the
    /// reference is the same calls for serials the store never issued (the CTEs find no pass and write nothing).
    @Test(.enabled(if: count != nil && PostgresTestServer.url != nil, "set PASSMINT_BENCH_REGISTER=N and a server"))
    func registerThroughputPostgres() throws {
        let count = try #require(Self.count)
        let f = try StoreFixture(.postgres)
        try f.store.insertPasses((0..<1000).map { pass("I\($0)", loyalty) })
        var best = (counted: 0.0, reference: 0.0)
        for round in 0..<3 {
            best.reference = max(
                best.reference, try Self.registerRate(f, count: count, serialPrefix: "N", round: round))
            best.counted = max(best.counted, try Self.registerRate(f, count: count, serialPrefix: "I", round: round))
        }
        print(
            "register on PostgreSQL, \(count) new devices x 3 rounds, 8 threads, best round: counted "
                + "\(Int(best.counted))/s, reference (serials never issued: nothing to count) \(Int(best.reference))/s, "
                + "ratio " + String(format: "%.2f", best.counted / best.reference))
        #expect(try f.store.installTotals().first?.activeDevices == 3 * count)
    }
}
