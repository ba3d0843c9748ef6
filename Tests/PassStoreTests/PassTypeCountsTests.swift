import Testing
@testable import PassStore
import PassMintTestSupport

@Suite("PassStore pass type counts (SQLite and PostgreSQL)")
struct PassTypeCountsTests {
    @Test("passes are counted per pass type identifier; an empty store has none", arguments: StoreBackend.all)
    func countsPerPassType(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        #expect(try f.store.passTypeCounts() == [:])
        try f.store.insertPasses([
            samplePass("S1"), samplePass("S2"), samplePass("O1", passType: "pass.com.example.other"),
        ])
        #expect(try f.store.passTypeCounts() == ["pass.com.example.loyalty": 2, "pass.com.example.other": 1])
        // An update keeps the pass where it was counted.
        _ = try f.store.updateRecord(serial: "S1", record: ["points": "11"])
        #expect(try f.store.passTypeCounts() == ["pass.com.example.loyalty": 2, "pass.com.example.other": 1])
    }
}
