import Foundation

/// The reads behind `PostgresChangeFeed`'s caches, and the pusher wake-up.
extension PostgresStore {
    /// Calls `handler` (on the listener thread) when any instance queued pushes into the shared outbox, so a
    /// pusher sends them at once instead of at its next poll; never called unless the store listens.
    package func onPushesQueued(_ handler: @escaping @Sendable () -> Void) {
        changes?.onPushesQueued(handler)
    }

    /// True while the store receives change notifications (its read caches are in use).
    package var isListeningForChanges: Bool { changes?.isLive ?? false }

    /// Every serial of `passType` the device is registered for, with its tag, ordered by tag and serial.
    func registrations(device: String, passType: String) throws -> PostgresChangeFeed.Registrations {
        try pool.withConnection { db in
            let result = try db.query(
                """
                SELECT p.serial, p.tag FROM registrations r JOIN passes p ON p.serial = r.serial
                WHERE r.device = $1 AND r.pass_type = $2 AND p.pass_type = $2
                ORDER BY p.tag, p.serial
                """, [device, passType])
            return (0..<result.rowCount).map { (serial: result.string($0, 0), tag: result.int64($0, 1)) }
        }
    }

    /// `updatedSerials` computed from a whole registration list (ordered by tag and serial).
    static func updated(_ list: PostgresChangeFeed.Registrations, since: Int64?) -> (
        serials: [String], lastUpdated: Int64
    )? {
        let newer = list.filter { $0.tag > (since ?? Int64.min) }
        guard let last = newer.last else { return nil }
        return (newer.map(\.serial), last.tag)
    }
}
