import Foundation
import Testing
import PassMint
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

    @Test(
        "a chunk stores every pass exactly: awkward text, no web service, images byte for byte, links, one count each",
        arguments: StoreBackend.all)
    func chunkRoundTrip(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        // Text PostgreSQL's array syntax gives meaning to (quotes, backslashes, braces, commas, NULL) and more.
        let awkward = [
            "\"quoted\"", "back\\slash\\", "{braces},[and],commas", "NULL", "", " spaced ", "ünï©ødé 🎫", "a\nnew line",
        ]
        var passes: [StoredPass] = []
        for (i, text) in awkward.enumerated() {
            var pass = samplePass("C\(i)")
            pass.record = ["name": text, "tier": "Gold", "note": "\(text)-\(i)"]
            pass.templatePath = "Templates/\(text.isEmpty ? "loyalty" : "loyalty \(i)")"
            pass.webServiceURL = i.isMultiple(of: 2) ? nil : "https://passes.example.com/\(i)/"
            pass.voided = i == 3
            pass.compatiblePass = i == 5
            if i < 3 {
                pass.images = [
                    "thumbnail.png": (0..<300).map { UInt8(($0 * 7 + i) % 256) }, "strip.png": [0, 255, 92],
                ]
            }
            passes.append(pass)
        }
        let links = passes.prefix(4).map {
            PassLinkGrant(
                serialNumber: $0.serialNumber,
                key: LinkKey(selector: "sel-\($0.serialNumber)", hash: "hash-\($0.serialNumber)"))
        }
        try f.store.insertPasses(passes, links: Array(links))
        for expected in passes {
            let stored = try #require(try f.store.pass(serial: expected.serialNumber))
            #expect(stored.record == expected.record)
            #expect(stored.templatePath == expected.templatePath)
            #expect(stored.webServiceURL == expected.webServiceURL)
            #expect(stored.voided == expected.voided && stored.compatiblePass == expected.compatiblePass)
            #expect(stored.authenticationToken == expected.authenticationToken)
            #expect(stored.images == expected.images)
        }
        let tags = try passes.map { try #require(try f.store.pass(serial: $0.serialNumber)).tag }
        #expect(tags == tags.sorted() && Set(tags).count == tags.count, "tags drawn in the given order")
        #expect(try f.store.link(serial: "C0") != nil && f.store.link(serial: "C3") != nil)
        #expect(try f.store.link(serial: "C4") == nil)
        #expect(try f.store.resolveLink(LinkKey(selector: "sel-C2", hash: "hash-C2"))?.serialNumber == "C2")
        #expect(try f.store.installTotals().map(\.issued).reduce(0, +) == passes.count)

        // Stored again (a serial given twice in one call included): the last version wins, images replaced, and
        // no pass is counted as issued twice.
        var again = passes[0]
        again.record = ["name": "second"]
        again.images = [:]
        var last = passes[0]
        last.record = ["name": "third"]
        try f.store.insertPasses([again, passes[1], last])
        #expect(try f.store.pass(serial: "C0")?.record == ["name": "third"])
        #expect(try f.store.pass(serial: "C0")?.images == passes[0].images)
        try f.store.insertPasses([again])
        #expect(try f.store.pass(serial: "C0")?.images == [:])
        #expect(try f.store.installTotals().map(\.issued).reduce(0, +) == passes.count)
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
