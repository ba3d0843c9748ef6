/// Everything `serve`, its pusher and the program's jobs need of one store: what `StoreAccess.open` returns, and
/// what both `SQLiteStore` and `PostgresStore` are.
package protocol ServiceStore: PassStore, PushOutbox, BulkChangeStore, UpdateJobStore, PassLinkStore, PassEventStore,
    TemplateVersionStore, GoogleWalletStore
{
    /// Calls `handler` when another process (another `serve` instance, `passmint update`) queued pushes, so a
    /// pusher sends them at once instead of at its next poll. A store that cannot tell never calls it.
    func onPushesQueued(_ handler: @escaping @Sendable () -> Void)
}

extension PostgresStore: ServiceStore {}

extension SQLiteStore: ServiceStore {
    /// Never called: a SQLite file sends no notifications, and the pusher finds other processes' rows by polling.
    package func onPushesQueued(_ handler: @escaping @Sendable () -> Void) {}
}
