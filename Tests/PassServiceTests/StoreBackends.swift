import Foundation
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

/// The PostgreSQL server of the tests, and fresh empty schemas on it (one per test, so tests run in parallel
/// without seeing each other's rows).
enum PostgresTestServer {
    static let variable = "PASSMINT_TEST_POSTGRES_URL"
    static let url = ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    static let skipReason: Comment = "no PostgreSQL server: run `scripts/test-postgres start` and export PASSMINT_TEST_POSTGRES_URL"

    /// The URL of a new, empty schema (libpq's `options` sets the search path for every connection).
    static func freshSchema() throws -> PostgresURL {
        guard let base = url else { throw ServiceError.invalidConfiguration("\(variable) is not set") }
        let schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let admin = try PGConnection(url: base, server: base)
        try admin.execute("CREATE SCHEMA \(schema)")
        let separator = base.contains("?") ? "&" : "?"
        return try PostgresURL(base + separator + "options=-csearch_path%3D\(schema)")
    }
}
