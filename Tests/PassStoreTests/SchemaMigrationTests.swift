import Foundation
import Testing
@testable import PassStore
import PassMintTestSupport

/// The stores' schema steps, and SQLite stores made by older versions opened by this one.
@Suite("Schema migrations")
struct SchemaMigrationTests {
    @Test(
        "each store lists its steps in strictly increasing versions (the last one is what a store records)",
        arguments: StoreBackend.allCases)
    func stepsInOrder(backend: StoreBackend) {
        let versions =
            switch backend {
            case .sqlite: SQLiteSchema.migrations.map(\.version)
            case .postgres: PostgresSchema.migrations.map(\.version)
            }
        #expect(zip(versions, versions.dropFirst()).allSatisfy { $0 < $1 }, "\(versions)")
    }

    @Test("a version-1 store keeps its passes; the web service URL and compatible flag move from the record to columns")
    func fromVersionOne() throws {
        let directory = try TempDir()
        let path = directory.path("old.sqlite")
        do {
            let db = try SQLiteConnection(path: path, busyTimeoutMilliseconds: 1000)
            try db.execute(SQLiteSchema.migrations[0].sql + "PRAGMA user_version = 1;")
            try db.execute(
                """
                INSERT INTO passes (serial, pass_type, template, record, auth_token, tag, modified_at, voided)
                VALUES ('A', 'pass.t', 'Templates/status',
                    '{"@compatiblePass":"true","@webServiceURL":"https://passes.example.com","tier":"Gold"}',
                    'tok', 7, 100, 0),
                ('B', 'pass.t', 'Templates/status', '{"tier":"Silver"}', 'tok2', 8, 101, 0);
                """)
        }
        let store = try SQLiteStore(path: path)
        let a = try #require(try store.pass(serial: "A"))
        #expect(a.record == ["tier": "Gold"])
        #expect(a.webServiceURL == "https://passes.example.com")
        #expect(a.compatiblePass)
        #expect(a.tag == 7)
        let b = try #require(try store.pass(serial: "B"))
        #expect(b.webServiceURL == nil && !b.compatiblePass && b.record == ["tier": "Silver"])
        let version = try store.pool.withConnection { db in
            try db.withStatement("PRAGMA user_version") { s in try s.step() ? s.int(0) : 0 }
        }
        #expect(version == SQLiteSchema.latestVersion)
        // Opening again applies nothing.
        #expect(try store.pool.withWriter { try SQLiteSchema.migrate($0) }.isEmpty)
    }

    @Test("a store migrated by a newer PassMint is refused, naming the versions")
    func tooNew() throws {
        let directory = try TempDir()
        let path = directory.path("new.sqlite")
        do {
            let db = try SQLiteConnection(path: path, busyTimeoutMilliseconds: 1000)
            try db.execute("PRAGMA user_version = 99")
        }
        #expect(throws: StoreError.schemaTooNew(server: path, found: 99, known: SQLiteSchema.latestVersion)) {
            _ = try SQLiteStore(path: path)
        }
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
        let photo: [String: [UInt8]] = ["thumbnail.png": [1, 2, 3]]
        let old = try #require(try store.pass(serial: "OLD"))
        #expect(old.record == ["tier": "Silver"])
        #expect(old.images == [:])
        _ = try store.updateRecord(serial: "OLD", record: ["tier": "Gold"], images: photo)
        #expect(try store.pass(serial: "OLD")?.images == photo)
    }
}
