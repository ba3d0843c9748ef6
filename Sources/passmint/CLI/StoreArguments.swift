import Foundation
import PassStore

/// `--db FILE` / `--postgres URL` / `--pool-size N`, shared by serve, update, batch, generate and migrate.
///
/// The PostgreSQL URL comes from `--postgres` or from `PASSMINT_DATABASE_URL`. A password may only come from
/// that variable (or libpq's `PGPASSFILE`): command lines are visible to every user of the machine. The SQLite
/// file comes from `--db` or from `PASSMINT_DB`, so commands find the store from any folder.
enum StoreArguments {
    static let environmentVariable = "PASSMINT_DATABASE_URL"
    static let fileVariable = "PASSMINT_DB"
    /// The `--db` help of commands that fall back to a store file.
    static let defaultFileHelp = "SQLite store (default: $\(fileVariable), else passmint.db)"

    /// `--db FILE`; its help differs by command, its name never does.
    static func database(help: String) -> Option<String> { Option("db", "FILE", help) }
    static let postgres = Option<String>(
        "postgres", "URL", "shared PostgreSQL store, postgresql://USER@HOST:PORT/DB (or \(environmentVariable))")
    static let poolSize = Option<Int>.integer(
        "pool-size", "N",
        "PostgreSQL connections for queries (default \(StoreLocation.defaultPoolSize); serve opens two more)")
    /// `--db` as every command reads it (the help is its declaration's).
    static let database = database(help: defaultFileHelp)

    static func options(dbHelp: String) -> [any OptionDeclaration] {
        [database(help: dbHelp), postgres, poolSize]
    }

    /// The store asked for: `--postgres`, `--db`, then `PASSMINT_DATABASE_URL`, then `PASSMINT_DB`; nil when none
    /// names one.
    static func location(
        _ args: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(CLIError) -> StoreLocation? {
        let poolSize = try (args.declares(Self.poolSize) ? args[Self.poolSize] : nil) ?? StoreLocation.defaultPoolSize
        guard poolSize >= 1 else { throw .usage("--pool-size needs at least 1 connection") }
        let file = args.declares(database) ? args[database] : nil
        if let text = args[postgres] {
            if file != nil { throw .usage("give --db FILE or --postgres URL, not both") }
            let url = try parse(text, from: "--postgres")
            guard !url.hasPassword else {
                throw .usage(
                    "--postgres \(url): a password on the command line is visible to every user; put the URL in "
                        + "\(environmentVariable) or the password in PGPASSFILE")
            }
            return .postgres(url, poolSize: poolSize)
        }
        if let path = file { return .sqlite(path: path) }
        if let text = environment[environmentVariable], !text.isEmpty {
            return .postgres(try parse(text, from: environmentVariable), poolSize: poolSize)
        }
        if let path = environment[fileVariable], !path.isEmpty { return .sqlite(path: path) }
        return nil
    }

    private static func parse(_ text: String, from source: String) throws(CLIError) -> PostgresURL {
        do { return try PostgresURL(text) } catch { throw .usage("\(source): \(error.description)") }
    }
}
