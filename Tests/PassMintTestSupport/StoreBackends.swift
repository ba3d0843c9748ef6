import Foundation
import Testing

import PassStore

/// The store implementations the shared store tests run against. PostgreSQL takes part when
/// `PASSMINT_TEST_POSTGRES_URL` names a server (`scripts/test-postgres start` prints one).
package enum StoreBackend: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgres

    /// SQLite always; PostgreSQL when a test server is given.
    package static var all: [StoreBackend] { PostgresTestServer.url == nil ? [.sqlite] : [.sqlite, .postgres] }

    package var testDescription: String { rawValue }
}

/// `TestPostgres` with the store's URL type.
package enum PostgresTestServer {
    package static let url = TestPostgres.url
    package static let skipReason = Comment(rawValue: TestPostgres.skipReason)

    /// A new, empty schema on the test server.
    package static func freshSchema() throws -> PostgresURL { try PostgresURL(try TestPostgres.freshSchema()) }
}
