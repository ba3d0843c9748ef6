import Foundation
import PassMintTestSupport
import Testing

@testable import PassService

/// The store implementations the shared store tests run against. PostgreSQL takes part when
/// `PASSMINT_TEST_POSTGRES_URL` names a server (`scripts/test-postgres start` prints one).
enum StoreBackend: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgres

    /// SQLite always; PostgreSQL when a test server is given.
    static var all: [StoreBackend] { PostgresTestServer.url == nil ? [.sqlite] : [.sqlite, .postgres] }

    var testDescription: String { rawValue }
}

/// `TestPostgres` with the store's URL type.
enum PostgresTestServer {
    static let url = TestPostgres.url
    static let skipReason = Comment(rawValue: TestPostgres.skipReason)

    /// A new, empty schema on the test server.
    static func freshSchema() throws -> PostgresURL { try PostgresURL(try TestPostgres.freshSchema()) }
}
