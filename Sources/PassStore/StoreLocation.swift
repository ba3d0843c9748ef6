/// Where the update service's store lives: an embedded SQLite file, or a PostgreSQL database that several
/// service instances share.
package enum StoreLocation: Sendable, CustomStringConvertible, Equatable {
    case sqlite(path: String)
    /// `poolSize`: the connections for queries (`serve` opens two more: it listens, and registers, on its own).
    case postgres(PostgresURL, poolSize: Int)

    /// The default pool size of a PostgreSQL store.
    package static let defaultPoolSize = 8

    /// For messages: the file, or the URL without its password.
    package var description: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let url, _): return url.description
        }
    }
}
