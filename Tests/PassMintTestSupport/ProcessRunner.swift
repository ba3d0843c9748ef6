import Foundation
import Synchronization

/// Runs the built `passmint` binary and other tools (openssl, unzip, curl, …) for tests.
public enum CLI {
    /// The package root.
    public static var root: URL { PackagePaths.root }
    /// `../shared/fixtures`, or nil when absent.
    public static var fixtures: URL? { PackagePaths.fixtures }

    /// The `passmint` executable next to the test bundle, or `PASSMINT_TEST_BINARY` when set (to run the end-to-end
    /// tests against another build, e.g. to see a new test fail on the code before a fix).
    public static let binary: String = {
        if let chosen = ProcessInfo.processInfo.environment["PASSMINT_TEST_BINARY"], !chosen.isEmpty { return chosen }
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [dir, dir.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("passmint").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return root.appendingPathComponent(".build/debug/passmint").path
    }()

    /// What a finished process printed and its exit status.
    public struct Result: Sendable {
        public let status: Int32
        /// Standard output as bytes (binary output such as `unzip -p` of an image).
        public let output: [UInt8]
        public let stderr: String
        /// Standard output as UTF-8 text.
        public var stdout: String { String(decoding: output, as: UTF8.self) }
    }

    /// Starts `passmint args…` in the background, its output discarded, for tests that stop it themselves
    /// (signals, kills).
    /// - Parameter stderrPath: a file that receives its standard error (discarded when nil), for the message of
    ///   a test that fails on its exit status.
    public static func launch(_ args: [String], environment: [String: String] = [:], stderrPath: String? = nil) throws
        -> Process
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = args
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        if let stderrPath {
            FileManager.default.createFile(atPath: stderrPath, contents: nil)
            process.standardError = FileHandle(forWritingAtPath: stderrPath) ?? FileHandle.nullDevice
        }
        try process.run()
        return process
    }

    /// Runs `passmint args…` in `cwd`.
    @discardableResult
    public static func passmint(_ args: [String], cwd: URL? = nil, environment: [String: String] = [:]) throws -> Result
    {
        try run(binary, args, cwd: cwd, environment: environment)
    }

    /// Runs a program like `run` and throws `TestToolFailure` with its command line and standard error when it
    /// exits non-zero: for tools whose failure means the test cannot go on (openssl making a key, sqlite3, …).
    @discardableResult
    public static func check(
        _ program: String, _ args: [String], cwd: URL? = nil, environment: [String: String] = [:], stdin: Data? = nil
    ) throws -> Result {
        let result = try run(program, args, cwd: cwd, environment: environment, stdin: stdin)
        guard result.status == 0 else {
            throw TestToolFailure(
                "\(program) \(args.joined(separator: " ")) exited with \(result.status): \(result.stderr)")
        }
        return result
    }

    /// Runs any program (absolute path or found on PATH), with stdin from `stdin` or /dev/null.
    @discardableResult
    public static func run(
        _ program: String, _ args: [String], cwd: URL? = nil, environment: [String: String] = [:], stdin: Data? = nil
    ) throws -> Result {
        let process = Process()
        if program.hasPrefix("/") {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = args
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [program] + args
        }
        if let cwd { process.currentDirectoryURL = cwd }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let outPipe = Pipe(), errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        if let stdin {
            let inPipe = Pipe()
            process.standardInput = inPipe
            try process.run()
            inPipe.fileHandleForWriting.write(stdin)
            try inPipe.fileHandleForWriting.close()
        } else {
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }
        // Read both pipes at once so a chatty child never blocks on a full pipe.
        let errData = Mutex(Data())
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            let data = errPipe.fileHandleForReading.readDataToEndOfFile()
            errData.withLock { $0 = data }
            group.leave()
        }
        let out = outPipe.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, output: Array(out),
            stderr: String(decoding: errData.withLock { $0 }, as: UTF8.self))
    }
}
