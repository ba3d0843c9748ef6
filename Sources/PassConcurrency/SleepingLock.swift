import Foundation

/// A value guarded by a pthread mutex (NSLock), for state that many threads touch on every request.
///
/// Why not `Synchronization.Mutex`: on Linux its contended path spins (in user space, then in the kernel's
/// priority-inheritance futex) while the holder runs; with a few dozen threads on two cores that spinning
/// measured 3-10% of the service's CPU on the registration path. A pthread mutex sleeps at once.
package final class SleepingLock<Value>: @unchecked Sendable {  // `value` is only touched while `lock` is held
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
