import Dispatch

/// Seconds since a job started, on the monotonic clock (a wall-clock change does not move it).
package struct JobClock: Sendable {
    private let start = DispatchTime.now()

    package init() {}

    /// Seconds since `init`.
    package var seconds: Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }
}
