/// How much of each pass's history the service keeps for `passmint trace`.
package struct PassEventOptions: Sendable, Equatable {
    /// Events and versions older than this are deleted by the retention sweep.
    package var retentionDays: Int
    /// The most events kept per pass; each batch written drops the oldest beyond it.
    package var perPass: Int
    /// The most events waiting in memory for the writer; beyond it new events are dropped (and counted), so a
    /// store that cannot keep up never makes the service grow without bound.
    package var maxQueued: Int

    package init(retentionDays: Int = 30, perPass: Int = 200, maxQueued: Int = 100_000) {
        self.retentionDays = retentionDays
        self.perPass = perPass
        self.maxQueued = maxQueued
    }
}
