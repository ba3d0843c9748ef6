import Foundation
import Testing
@testable import PassStore
import PassMintTestSupport

/// The per-record images a pass is stored with (`pass_images`), and databases made before that table existed.
@Suite("PassStore pass images (SQLite and PostgreSQL)")
struct SQLiteStoreImagesTests {
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

    @Test("a database made before pass_images gains the table on open and keeps its passes")
    func olderDatabase() throws {
        let directory = try TempDir()
        let path = directory.path("old.sqlite")
        let v1 =
            "BEGIN;" + SQLiteSchema.migrations[0].sql + "CREATE TABLE unused_v2 (x); PRAGMA user_version = 1; COMMIT;"
        try CLI.check(
            "sqlite3",
            [
                path,
                v1 + """
                    INSERT INTO passes VALUES ('OLD', 'pass.com.example.loyalty', 'Templates/loyalty', '{"tier":"Silver"}',
                        'token-OLD-0123456789abcdef0123456789abcdef', 1, 1800000000, 0);
                    DROP TABLE unused_v2;
                    """,
            ])
        let store = try SQLiteStore(path: path)
        let old = try #require(try store.pass(serial: "OLD"))
        #expect(old.record == ["tier": "Silver"])
        #expect(old.images == [:])
        _ = try store.updateRecord(serial: "OLD", record: ["tier": "Gold"], images: Self.photo)
        #expect(try store.pass(serial: "OLD")?.images == Self.photo)
    }
}
