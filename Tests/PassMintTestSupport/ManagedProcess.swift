import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process whose first stdout line is read (with a timeout) and which is stopped on `stop()` / deinit.
public final class ManagedProcess {
    public let process = Process()
    public let name: String
    public let stderrPath: String
    private let stdinPipe = Pipe()
    private let stdoutPipe = Pipe()

    /// Starts `program args…` (found on PATH); stderr goes to `stderrPath`, stdout to `stdoutPath` or a pipe.
    public init(
        _ name: String, _ program: String, _ args: [String], environment: [String: String] = [:], stderrPath: String,
        stdoutPath: String? = nil, keepStdinOpen: Bool = false
    ) throws {
        self.name = name
        self.stderrPath = stderrPath
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + args
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        if let stdoutPath {
            _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
            process.standardOutput = FileHandle(forWritingAtPath: stdoutPath)
        } else {
            process.standardOutput = stdoutPipe
        }
        process.standardInput = keepStdinOpen ? stdinPipe : FileHandle.nullDevice
        try process.run()
    }

    deinit { _ = stop(grace: 0) }

    public var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// True until the process exited.
    public var isRunning: Bool { process.isRunning }

    /// The first line on stdout; kills the process and throws if none comes within `timeout`.
    public func firstLine(timeout: TimeInterval = 30) throws -> String {
        let handle = stdoutPipe.fileHandleForReading
        let box = Mutex(Data())
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                line.append(chunk)
            }
            box.withLock { $0 = line }
            done.signal()
        }
        if done.wait(timeout: .now() + timeout) == .timedOut {
            _ = stop(grace: 0)
            _ = done.wait(timeout: .now() + 5)
        }
        let text = String(decoding: box.withLock { $0 }, as: UTF8.self)
        guard let line = text.split(separator: "\n").first else {
            _ = stop(grace: 0)
            throw TestToolFailure("\(name) printed nothing within \(timeout) s; stderr: \(stderr)")
        }
        return String(line)
    }

    /// Writes `text` to the process's stdin (started with `keepStdinOpen`).
    public func send(_ text: String) {
        stdinPipe.fileHandleForWriting.write(Data(text.utf8))
    }

    /// Waits up to `timeout` for the process to exit by itself; its status, or nil if still running.
    public func waitForExit(timeout: TimeInterval) -> Int32? {
        _ = waitUntil(timeout: timeout) { !process.isRunning }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// SIGTERM, then SIGKILL after `grace` seconds. Returns the exit status if it stopped within the grace time.
    @discardableResult
    public func stop(grace: TimeInterval = 5) -> Int32? {
        guard process.isRunning else { return process.terminationStatus }
        var clean: Int32?
        if grace > 0 {
            kill(process.processIdentifier, SIGTERM)
            clean = waitForExit(timeout: grace)
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? stdinPipe.fileHandleForWriting.close()
        return clean
    }
}
