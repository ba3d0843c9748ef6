import Dispatch
import Foundation
import Synchronization

/// A small, fixed-size set of connections to one PostgreSQL server, each lent to one caller at a time.
///
/// Why fixed: every `serve` instance of a deployment has its own pool, and the server's `max_connections` is
/// shared by all of them, so the size is an explicit option rather than a peak that grows with load. A caller
/// waits for a free connection. Connections are opened lazily; one found broken (the server restarted) is
/// dropped together with every idle one (they broke with it), and the next caller opens a fresh one, so the
/// pool reconnects by itself once the server is back.
final class PostgresPool: Sendable {
    let url: PostgresURL
    let size: Int
    private let idle = Mutex<[PGConnection]>([])
    private let slots: DispatchSemaphore
    /// Run on each new connection before it is lent (none by default).
    private let setUp: @Sendable (PGConnection) throws -> Void

    init(url: PostgresURL, size: Int, setUp: @escaping @Sendable (PGConnection) throws -> Void = { _ in }) {
        self.url = url
        self.size = max(1, size)
        self.slots = DispatchSemaphore(value: max(1, size))
        self.setUp = setUp
    }

    /// Runs `body` on a connection of its own.
    /// - Throws: `StoreError.databaseUnavailable` when no connection can be opened or it broke meanwhile;
    ///   whatever `body` throws otherwise.
    @discardableResult
    func withConnection<T>(_ body: (PGConnection) throws -> T) throws -> T {
        slots.wait()
        defer { slots.signal() }
        let connection = try idle.withLock { $0.popLast() } ?? open()
        do {
            let value = try body(connection)
            release(connection)
            return value
        } catch {
            release(connection)
            throw error
        }
    }

    /// Runs `body` in one transaction on a connection of its own.
    @discardableResult
    func transaction<T>(_ body: (PGConnection) throws -> T) throws -> T {
        try withConnection { db in try db.transaction { try body(db) } }
    }

    /// Closes the idle connections (they reopen on demand).
    func closeIdle() {
        let closing = idle.withLock { connections -> [PGConnection] in
            defer { connections.removeAll() }
            return connections
        }
        _ = closing
    }

    private func open() throws -> PGConnection {
        let connection = try PGConnection(url: url.connectionString, server: url.description)
        try setUp(connection)
        return connection
    }

    private func release(_ connection: PGConnection) {
        if connection.isUsable {
            idle.withLock { $0.append(connection) }
        } else {
            closeIdle()
        }
    }
}
