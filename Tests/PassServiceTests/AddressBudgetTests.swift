import Foundation
import Testing

@testable import PassService

@Suite("AddressBudget: an hourly budget per client address")
struct AddressBudgetTests {
    let start = ContinuousClock.now

    @Test("spends down, says how long until enough has refilled, and refills evenly over the hour")
    func refill() {
        let budget = AddressBudget(perHour: 3600)  // one a second
        #expect(budget.take(3000, from: "192.0.2.1", now: start) == nil)
        #expect(budget.take(600, from: "192.0.2.1", now: start) == nil)
        #expect(budget.take(10, from: "192.0.2.1", now: start) == 10)
        #expect(budget.take(10, from: "192.0.2.1", now: start + .seconds(4)) == 6)
        #expect(budget.take(10, from: "192.0.2.1", now: start + .seconds(10)) == nil)
        // More than an hour's budget costs the whole hour, not forever.
        #expect(budget.take(1_000_000, from: "192.0.2.2", now: start) == nil)
        #expect(budget.take(1, from: "192.0.2.2", now: start) == 1)
    }

    @Test("0 per hour means no budget at all")
    func unlimited() {
        let budget = AddressBudget(perHour: 0)
        for _ in 0..<1000 { #expect(budget.take(1_000_000, from: "192.0.2.1", now: start) == nil) }
        #expect(budget.trackedAddresses == 0)
    }

    @Test(
        "an IPv6 address counts by its /64; an IPv4-mapped one as the IPv4 address",
        arguments: [
            ("2001:db8:1:2::1", "2001:db8:1:2:ffff:eeee:dddd:cccc", true),
            ("2001:db8:1:2::1", "2001:db8:1:3::1", false),
            ("::ffff:192.0.2.7", "192.0.2.7", true),
            ("192.0.2.7", "192.0.2.8", false),
        ])
    func keys(a: String, b: String, same: Bool) {
        #expect(
            (AddressBudget.key(a) == AddressBudget.key(b)) == same, "\(AddressBudget.key(a)) \(AddressBudget.key(b))")
        let budget = AddressBudget(perHour: 10)
        #expect(budget.take(10, from: a, now: start) == nil)
        #expect((budget.take(1, from: b, now: start) != nil) == same)
    }

    @Test("memory stays bounded: past maxAddresses the full budgets, else the oldest, are forgotten")
    func bounded() {
        let budget = AddressBudget(perHour: 100, maxAddresses: 50)
        for i in 0..<1000 {
            _ = budget.take(100, from: "10.0.\(i / 256).\(i % 256)", now: start + .milliseconds(i))
            #expect(budget.trackedAddresses <= 50)
        }
        // The newest address is still held to its budget.
        #expect(budget.take(1, from: "10.0.3.231", now: start + .milliseconds(1000)) != nil)
    }
}
