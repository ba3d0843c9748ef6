import Foundation
import Testing

import PassStore

/// The store implementations the shared store tests run against. PostgreSQL takes part when
/// `PASSMINT_TEST_POSTGRES_URL` names a server (`scripts/test-postgres start` prints one).
public enum StoreBackend: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgres

    /// SQLite always; PostgreSQL when a test server is given.
    public static var all: [StoreBackend] { PostgresTestServer.url == nil ? [.sqlite] : [.sqlite, .postgres] }

    public var testDescription: String { rawValue }
}

/// `TestPostgres` with the store's URL type.
public enum PostgresTestServer {
    public static let url = TestPostgres.url
    public static let skipReason = Comment(rawValue: TestPostgres.skipReason)

    /// A new, empty schema on the test server.
    public static func freshSchema() throws -> PostgresURL { try PostgresURL(try TestPostgres.freshSchema()) }
}
