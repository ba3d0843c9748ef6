import Foundation
import PassMintTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// PushTestServer.py running on a free port; killed on `stop()` / deinit (and it exits by itself when the
/// test process dies, because its stdin closes).
final class PushScriptServer {
    let port: Int
    let logPath: String
    private let process: Process
    private let stdin: Pipe

    /// - Parameter extraArguments: more options for the script (its token authentication, a clock file).
    init(python: String, pki: PushTestPKI, scratch: PushScratch, extraArguments: [String] = []) throws {
        logPath = scratch.path("apns-\(UUID().uuidString).jsonl")
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                python, PushTestTools.testsFolder.appendingPathComponent("PushTestServer.py").path,
                "--cert", pki.serverCert, "--key", pki.serverKey, "--ca", pki.ca, "--log", logPath,
            ] + extraArguments
        stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        _ = FileManager.default.createFile(atPath: scratch.path("apns-server.err"), contents: nil)
        process.standardError = FileHandle(forWritingAtPath: scratch.path("apns-server.err"))
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let err = (try? String(contentsOfFile: scratch.path("apns-server.err"), encoding: .utf8)) ?? ""
            throw PushToolFailure(description: "PushTestServer.py did not start: \(text) \(err)")
        }
        self.port = port
    }

    deinit { stop() }

    /// SIGKILL: the child inherits the test runner's blocked-signal mask, so SIGTERM may never arrive.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Every logged line (connections and requests).
    func records() throws -> [PushServerRecord] {
        let text = try String(contentsOfFile: logPath, encoding: .utf8)
        let decoder = JSONDecoder()
        return try text.split(separator: "\n").map { try decoder.decode(PushServerRecord.self, from: Data($0.utf8)) }
    }

    func requests() throws -> [PushServerRecord] { try records().filter { $0.event == nil } }

    func connections() throws -> [PushServerRecord] { try records().filter { $0.event == "connection" } }
}

/// Debian's nghttpd (`--echo-upload --verify-client`, optionally `-v`), killed on `stop()` / deinit.
final class PushNghttpd {
    let port: Int
    let logPath: String
    private let process: Process

    init(pki: PushTestPKI, scratch: PushScratch, verbose: Bool, maxStreams: Int = 100) throws {
        port = try freeLoopbackPort()
        logPath = scratch.path("nghttpd-\(port).log")
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["nghttpd", "--echo-upload", "--verify-client", "-a", "127.0.0.1", "-m", "\(maxStreams)"]
            + (verbose ? ["-v"] : []) + ["\(port)", pki.serverKey, pki.serverCert]
        let log = FileHandle(forWritingAtPath: logPath)
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        guard Self.waitForListener(port: port) else {
            stop()
            throw PushToolFailure(
                description:
                    "nghttpd did not listen on \(port): \(try String(contentsOfFile: logPath, encoding: .utf8))")
        }
    }

    deinit { stop() }

    /// SIGKILL: the child inherits the test runner's blocked-signal mask, so SIGTERM may never arrive.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    func log() throws -> String { try String(contentsOfFile: logPath, encoding: .utf8) }

    private static func waitForListener(port: Int) -> Bool {
        for _ in 0..<250 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            let connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            close(fd)
            if connected { return true }
            usleep(20_000)
        }
        return false
    }
}
