import Foundation
import Synchronization
import PassLog

/// Owner of one append-only log file descriptor, written from memory by a thread of its own.
///
/// Request threads only append to a buffer behind a `Mutex` (no system call, no disk wait); the writer thread
/// takes the whole buffer and writes it every `interval`, sooner when the buffer passes `wakeBytes`, and
/// `flush()` writes what is pending at once (at stop). When the disk falls so far behind that `maxPendingBytes`
/// are waiting, further lines are dropped and counted (reported on stderr) rather than letting memory grow or
/// making a request thread wait for the disk.
///
/// The writer thread holds the writer until `close()`, so the owner (`AccessLog`) must call it.
final class BufferedLogWriter: @unchecked Sendable {  // `fd` is immutable; the spare buffer is behind `writing`
    private struct Pending {
        var bytes: [UInt8] = []
        var dropped = 0
        var droppedTotal = 0
        var wakeRequested = false
        var closed = false
    }

    private let fd: Int32
    private let ownsDescriptor: Bool
    private let name: String
    private let wakeBytes: Int
    private let maxPendingBytes: Int
    private let pending = Mutex(Pending())
    /// Serializes taking and writing a chunk (the writer thread against `flush()`), so chunks reach the file in
    /// the order they were appended. Request threads never take it.
    private let writing = NSLock()
    private var spare: [UInt8] = []
    private var failing = false
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// - Parameters:
    ///   - fd: where to write; closed in `close()` when `ownsDescriptor`.
    ///   - name: the file's name for messages on stderr ("access log passmint.log").
    init(
        fd: Int32, ownsDescriptor: Bool, name: String, interval: Duration = .seconds(1), wakeBytes: Int = 64 * 1024,
        maxPendingBytes: Int = 8 * 1024 * 1024
    ) {
        self.fd = fd
        self.ownsDescriptor = ownsDescriptor
        self.name = name
        self.wakeBytes = wakeBytes
        self.maxPendingBytes = maxPendingBytes
        pending.withLock { $0.bytes.reserveCapacity(wakeBytes * 2) }
        spare.reserveCapacity(wakeBytes * 2)
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        let thread = Thread { [self] in run(interval: seconds) }
        thread.name = "passmint-log-writer"
        thread.start()
    }

    /// Appends what `body` writes (one whole line); dropped, and counted, when `reserve` bytes would not fit.
    func append(reserve: Int, _ body: (inout [UInt8]) -> Void) {
        let signal = pending.withLock { state -> Bool in
            guard !state.closed, state.bytes.count + reserve <= maxPendingBytes else {
                state.dropped += 1
                state.droppedTotal += 1
                return false
            }
            body(&state.bytes)
            guard state.bytes.count >= wakeBytes, !state.wakeRequested else { return false }
            state.wakeRequested = true
            return true
        }
        if signal { wake.signal() }
    }

    /// Lines dropped since the start because the disk fell behind (or after `close()`).
    var droppedLines: Int { pending.withLock { $0.droppedTotal } }

    /// Writes everything appended so far before returning.
    func flush() { drain() }

    /// Writes what is pending, stops the writer thread and closes the descriptor it owns; later lines are dropped.
    func close() {
        let first = pending.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        wake.signal()
        finished.wait()
        if ownsDescriptor { _ = Foundation.close(fd) }
    }

    private func run(interval: Double) {
        while true {
            _ = wake.wait(timeout: .now() + interval)
            drain()
            if pending.withLock({ $0.closed }) {
                drain()
                finished.signal()
                return
            }
        }
    }

    private func drain() {
        writing.lock()
        defer { writing.unlock() }
        // Trade the pending buffer for the spare one (moved, not copied, so neither is shared and appending to
        // the new pending buffer reuses its capacity).
        var chunk: [UInt8] = []
        swap(&chunk, &spare)
        let dropped = pending.withLock { state -> Int in
            swap(&state.bytes, &chunk)
            state.wakeRequested = false
            defer { state.dropped = 0 }
            return state.dropped
        }
        if dropped > 0 {
            ServiceLog.error("\(name): \(dropped) lines dropped because writing fell behind")
        }
        let error = Self.writeAll(fd, chunk)
        if let error, !failing {
            ServiceLog.error("\(name): writing failed: \(String(cString: strerror(error))); lines are being lost")
        } else if error == nil, failing {
            ServiceLog.error("\(name): writing works again")
        }
        failing = error != nil
        chunk.removeAll(keepingCapacity: true)
        spare = chunk
    }

    /// Writes all of `bytes`; the errno of a failure, nil on success.
    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
        bytes.withUnsafeBytes { buffer -> Int32? in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }
}
