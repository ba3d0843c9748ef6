import Foundation
import Testing
@testable import PassStore
import PassMintTestSupport

/// Storing and reading passes: tags, modification times, replacement.
@Suite("PassStore: passes, their tags and versions (SQLite and PostgreSQL)")
struct StoredPassTests {
    @Test("inserted passes round-trip with increasing tags", arguments: StoreBackend.all)
    func insertAndRead(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try f.store.insertPasses([samplePass("S1"), samplePass("S2")])
        let one = try #require(try f.store.pass(serial: "S1"))
        let two = try #require(try f.store.pass(passType: "pass.com.example.loyalty", serial: "S2"))
        #expect(one.record == ["name": "Ada", "tier": "Silver", "points": "10"])
        #expect(one.authenticationToken == samplePass("S1").authenticationToken)
        #expect(two.tag > one.tag)
        #expect(one.modifiedAt == f.clock.now)
        #expect(try f.store.pass(passType: "pass.other", serial: "S1") == nil)
        #expect(try f.store.pass(serial: "missing") == nil)
        let version = try #require(try f.store.passVersion(passType: "pass.com.example.loyalty", serial: "S2"))
        #expect(version.tag == two.tag)
        #expect(version.modifiedAtSeconds == Int64(f.clock.now.timeIntervalSince1970))
    }

    @Test("tags are monotonic across inserts and updates, never wall clock", arguments: StoreBackend.all)
    func tagsMonotonic(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try f.store.insertPasses([samplePass("A")])
        var last = try #require(try f.store.pass(serial: "A")).tag
        for points in 0..<5 {
            let (pass, _) = try f.store.updateRecord(serial: "A", record: ["points": "\(points)"])
            #expect(pass.tag == last + 1)
            last = pass.tag
        }
        #expect(last < 100)
    }

    @Test("modified_at is strictly later for each version, even within one second", arguments: StoreBackend.all)
    func modifiedAtStrictlyIncreasing(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try f.store.insertPasses([samplePass("A")])
        var previous = try #require(try f.store.pass(serial: "A")).modifiedAt
        for i in 0..<3 {
            let (pass, _) = try f.store.updateRecord(serial: "A", record: ["points": "\(i)"])
            #expect(pass.modifiedAt > previous)
            #expect(pass.modifiedAt.timeIntervalSince1970.rounded(.down) == pass.modifiedAt.timeIntervalSince1970)
            #expect(try f.store.pass(serial: "A")?.modifiedAt == pass.modifiedAt)
            previous = pass.modifiedAt
        }
        f.clock.advance(60)
        let (late, _) = try f.store.updateRecord(serial: "A", record: ["points": "9"])
        #expect(late.modifiedAt == f.clock.now)
    }

    @Test("re-inserting a serial replaces it with a later version", arguments: StoreBackend.all)
    func reinsertReplaces(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        try f.store.insertPasses([samplePass("A")])
        let first = try #require(try f.store.pass(serial: "A"))
        try f.store.insertPasses([samplePass("A", token: "new-token-0123456789abcdef0123456789")])
        let second = try #require(try f.store.pass(serial: "A"))
        #expect(second.tag > first.tag)
        #expect(second.modifiedAt > first.modifiedAt)
        #expect(second.authenticationToken == "new-token-0123456789abcdef0123456789")
    }
}
