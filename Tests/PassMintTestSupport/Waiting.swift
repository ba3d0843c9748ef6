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

/// The same for async tests: it suspends between polls instead of blocking, so the waiting test does not hold a
/// thread of the cooperative pool that the code it waits for may need.
@discardableResult
public func waitUntil(timeout: TimeInterval = 15, _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        try? await Task.sleep(nanoseconds: 20_000_000)
    }
    return try condition()
}

/// The blocking `waitUntil`, called from an async test: for a wait that must see the condition within
/// milliseconds (to kill a process in the middle of its work), which a task suspended between polls may miss when
/// the busy cooperative pool resumes it late. It holds a cooperative thread while it waits.
@discardableResult
public func waitUntilBlocking(timeout: TimeInterval = 15, _ condition: () throws -> Bool) rethrows -> Bool {
    try waitUntil(timeout: timeout, condition)
}
