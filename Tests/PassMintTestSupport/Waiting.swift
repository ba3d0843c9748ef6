import Foundation

/// Polls `condition` every 20 ms until it holds or `timeout` seconds pass; returns whether it held. Tests prove
/// that something happened with a condition like this, never with a fixed sleep.
@discardableResult
public func waitUntil(timeout: TimeInterval = 15, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(20_000)
    }
    return try condition()
}
