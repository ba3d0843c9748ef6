import Foundation
import Testing
@testable import PassStore
import PassMintTestSupport

/// The per-record images a pass is stored with (`pass_images`).
@Suite("PassStore: pass images (SQLite and PostgreSQL)")
struct PassImageStoreTests {
    static let photo: [String: [UInt8]] = [
        "thumbnail.png": [1, 2, 3], "thumbnail@2x.png": [4, 5, 6, 0],
        "thumbnail@3x.png": Array(repeating: 7, count: 300_000),
    ]

    @Test(
        "images round-trip with the pass; a record update keeps them; an image update replaces all of them",
        arguments: StoreBackend.all)
    func roundTrip(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        var pass = samplePass("S1")
        pass.images = Self.photo
        try f.store.insertPasses([pass, samplePass("S2")])
        #expect(try f.store.pass(serial: "S1")?.images == Self.photo)
        #expect(try f.store.pass(serial: "S2")?.images == [:])
        let (kept, _) = try f.store.updateRecord(serial: "S1", record: ["tier": "Gold"])
        #expect(kept.images == Self.photo)
        #expect(try f.store.pass(serial: "S1")?.images == Self.photo)
        let replacement: [String: [UInt8]] = [
            "thumbnail.png": [9], "thumbnail@2x.png": [9, 9], "thumbnail@3x.png": [9, 9, 9],
        ]
        _ = try f.store.updateRecord(serial: "S1", record: ["tier": "Gold"], images: replacement)
        #expect(try f.store.pass(serial: "S1")?.images == replacement)
        // Issuing the serial again replaces its images too (none now).
        try f.store.insertPasses([samplePass("S1")])
        #expect(try f.store.pass(serial: "S1")?.images == [:])
    }
}
