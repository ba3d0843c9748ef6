import Foundation
import PassStore

/// `passmint migrate`: move a program from the embedded SQLite store to PostgreSQL.
struct MigrateCommand: Command {
    static let fromSqlite = Option<String>("from-sqlite", "FILE", "the SQLite store to copy (not changed)")

    static let spec = CommandSpec(
        name: "migrate",
        abstract: "copy a SQLite store into an empty PostgreSQL database (passes, tokens, registrations, history)",
        usage: "migrate --from-sqlite FILE --postgres URL",
        discussion: """
            Creates the PostgreSQL schema and copies every pass (serial, token, record, update tag and
            Last-Modified second), device, registration, pending push, push history entry, log line and
            personalization in one transaction, so phones carry on with the tags and dates they have: every pass
            downloads with its old token and every device's list call answers the same serials. The SQLite file
            is only read. Stop `serve` on the SQLite file first (or accept that changes made during the copy
            stay behind), then start the instances with --postgres. The database must hold no passes yet.
            The URL may also come from PASSMINT_DATABASE_URL, the only place besides PGPASSFILE for a password.
            """,
        options: [fromSqlite, StoreArguments.postgres],
        examples: [
            "passmint migrate --from-sqlite passmint.db --postgres postgresql://passmint@db.internal/passmint"
        ]
    )

    let sourcePath: String
    let target: StoreLocation
    /// The target database, as `target` names it.
    let postgres: (url: PostgresURL, poolSize: Int)

    init(_ args: ParsedArguments) throws(CLIError) {
        sourcePath = try args.required(Self.fromSqlite, of: Self.spec)
        guard let location = try StoreArguments.location(args),
            case .postgres(let url, let poolSize) = location
        else {
            throw .usage("migrate needs --postgres URL (or PASSMINT_DATABASE_URL) for the target database")
        }
        target = location
        postgres = (url, poolSize)
    }

    func run() throws(CLIError) -> Int32 {
        guard FileManager.default.fileExists(atPath: sourcePath) else {
            throw .environment("--from-sqlite \(sourcePath): no such file")
        }
        let source: SQLiteStore
        let destination: PostgresStore
        do {
            source = try StoreAccess.sqlite(path: sourcePath)
            destination = try StoreAccess.postgres(url: postgres.url, poolSize: postgres.poolSize)
        } catch {
            throw CLIError(error)
        }
        do {
            let counts = try StoreTransfer.copy(from: source, to: destination)
            print("migrated \(sourcePath) to \(target): \(counts)")
            return 0
        } catch {
            throw .environment("copying \(sourcePath) to \(target): \(error)")  // the CLI's words for the store's error
        }
    }
}
