import Foundation

/// The PostgreSQL server of the tests, from `PASSMINT_TEST_POSTGRES_URL` (`scripts/test-postgres start` prints
/// it), and fresh empty schemas on it: each test gets its own, so tests run in parallel without seeing each
/// other's rows. Tests that need the server are `.enabled(if: TestPostgres.url != nil, TestPostgres.skipReason)`.
public enum TestPostgres {
    public static let variable = "PASSMINT_TEST_POSTGRES_URL"
    /// The server's URL, nil when no server is given.
    public static let url = ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    public static let skipReason =
        "no PostgreSQL server: run `scripts/test-postgres start` and export PASSMINT_TEST_POSTGRES_URL"

    /// Runs SQL on the server with psql; returns its unaligned output.
    @discardableResult
    public static func psql(_ url: String, _ sql: String) throws -> String {
        let result = try CLI.run("psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql])
        guard result.status == 0 else { throw TestPostgresFailure("psql: \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The URL of a new, empty schema (libpq's `options` sets the search path of every connection).
    public static func freshSchema() throws -> String {
        try url(schema: try freshSchemaName())
    }

    /// A new, empty schema on the server; its name.
    public static func freshSchemaName() throws -> String {
        guard let base = url else { throw TestPostgresFailure("\(variable) is not set") }
        let schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try psql(base, "CREATE SCHEMA \(schema)")
        return schema
    }

    /// The server's URL for `schema`, in its own database or in `database` (one on the same server).
    public static func url(schema: String, database: String? = nil) throws -> String {
        guard var base = url else { throw TestPostgresFailure("\(variable) is not set") }
        if let database {
            guard let components = URLComponents(string: base), let slash = components.path.lastIndex(of: "/") else {
                throw TestPostgresFailure("\(variable) has no database path: \(base)")
            }
            var moved = components
            moved.path = String(components.path[...slash]) + database
            base = moved.string ?? base
        }
        return base + (base.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
    }

    /// `scripts/test-postgres pause` / `resume`: stops and starts the same server, data kept.
    public static func control(_ verb: String) throws {
        let script = PackagePaths.root.appendingPathComponent("scripts/test-postgres").path
        let result = try CLI.run(script, [verb])
        guard result.status == 0 else { throw TestPostgresFailure("test-postgres \(verb): \(result.stderr)") }
    }
}

public struct TestPostgresFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
