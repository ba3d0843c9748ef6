import Foundation
import Synchronization
import Testing
@testable import PassHTTP

@Suite("Buffered log writer")
struct BufferedLogWriterTests {
    @Test(
        "a destination that stops taking bytes never holds up appends: beyond the bound, lines are dropped and counted")
    func stalledDestination() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]) }
        // Nobody reads the pipe, so the writer thread blocks in write() once the pipe's buffer is full.
        let writer = BufferedLogWriter(
            fd: fds[1], ownsDescriptor: true, name: "test log", interval: .milliseconds(5), wakeBytes: 1024,
            maxPendingBytes: 16 * 1024)
        let line = Array(repeating: UInt8(ascii: "x"), count: 99) + [UInt8(ascii: "\n")]
        let started = ContinuousClock.now
        for _ in 0..<20_000 { writer.append(reserve: line.count) { $0 += line } }  // 2 MB, far over pipe + bound
        #expect(ContinuousClock.now - started < .seconds(5), "appending waited for the destination")
        #expect(writer.droppedLines > 0)
        // Read everything so the writer can finish: every line not counted as dropped arrives, whole.
        let readEnd = fds[0]
        let received = Mutex(0)
        let done = DispatchSemaphore(value: 0)
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                received.withLock { $0 += count }
            }
            done.signal()
        }
        reader.start()
        writer.close()
        done.wait()
        #expect(received.withLock { $0 } == (20_000 - writer.droppedLines) * line.count)
    }
}
