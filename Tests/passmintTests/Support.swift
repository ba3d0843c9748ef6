import Foundation
import Testing

/// Runs the built `passmint` binary and other tools for end-to-end tests.
enum CLI {
    /// The package root (two folders above this file).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// `../shared/fixtures`, or nil when absent.
    static let fixtures: URL? = {
        let url = root.appendingPathComponent("../shared/fixtures").standardizedFileURL
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    /// The `passmint` executable next to the test bundle.
    static let binary: String = {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [dir, dir.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("passmint").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return root.appendingPathComponent(".build/debug/passmint").path
    }()

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs `passmint args…` in `cwd`.
    @discardableResult
    static func passmint(_ args: [String], cwd: URL? = nil, environment: [String: String] = [:]) throws -> Result {
        try run(binary, args, cwd: cwd, environment: environment)
    }

    /// Runs any program (absolute path or found on PATH).
    @discardableResult
    static func run(_ program: String, _ args: [String], cwd: URL? = nil, environment: [String: String] = [:], stdin: Data? = nil)
        throws -> Result
    {
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
        // Read both pipes concurrently so a chatty child never blocks.
        let errData = Mutexed(Data())
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData.set(errPipe.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
        let out = outPipe.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: errData.get(), as: UTF8.self))
    }
}

/// A tiny lock box for the test helper's background read.
final class Mutexed<T>: @unchecked Sendable {  // Sendable because every access holds the lock
    private var value: T
    private let lock = NSLock()
    init(_ value: T) { self.value = value }
    func set(_ v: T) { lock.lock(); value = v; lock.unlock() }
    func get() -> T { lock.lock(); defer { lock.unlock() }; return value }
}

/// A temporary folder removed when the test ends.
final class TempDir {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("passmint-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    deinit { try? FileManager.default.removeItem(at: url) }
}

/// A development identity made once per test process with the real `passmint certs dev`.
enum DevIdentity {
    static let directory: String = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("passmint-e2e-certs-\(getpid())").path
        if !FileManager.default.fileExists(atPath: dir + "/pass-cert.pem") {
            _ = try? CLI.passmint(["certs", "dev", "--dir", dir])
        }
        return dir
    }()

    static var signingArgs: [String] {
        ["--cert", directory + "/pass-cert.pem", "--key", directory + "/pass-key.pem", "--wwdr", directory + "/wwdr.pem"]
    }
}
