import Foundation
import Testing
@testable import PassStore
import PassMintTestSupport

@Suite("SQLiteSchema migrations")
struct SQLiteSchemaTests {
    @Test("both stores list their steps in strictly increasing versions (the last one is what a store records)")
    func stepsInOrder() {
        for (store, versions) in [
            ("SQLite", SQLiteSchema.migrations.map(\.version)),
            ("PostgreSQL", PostgresSchema.migrations.map(\.version)),
        ] {
            #expect(zip(versions, versions.dropFirst()).allSatisfy { $0 < $1 }, "\(store): \(versions)")
        }
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
}
