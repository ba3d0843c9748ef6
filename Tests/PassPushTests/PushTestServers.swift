import Foundation
import PassMintTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// PushTestServer.py (the shared `APNsStandIn`) trusting the PKI's CA for client certificates, with its log read
/// back as records.
final class PushScriptServer {
    let logPath: String
    private let server: APNsStandIn

    /// - Parameter extraArguments: more options for the script (its token authentication, a clock file).
    init(python: String, pki: PushTestPKI, scratch: TempDir, extraArguments: [String] = []) throws {
        logPath = scratch.path("apns-\(UUID().uuidString).jsonl")
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        server = try APNsStandIn(
            python: python, certificate: pki.serverCert, key: pki.serverKey, clientCA: pki.ca, log: logPath,
            stderrPath: scratch.path("apns-server.err"), arguments: extraArguments)
    }

    var port: Int { server.port }

    func stop() { server.stop() }

    /// Every logged line (connections and requests).
    func records() throws -> [PushServerRecord] {
        let decoder = JSONDecoder()
        return try AppendedLog.completeLines(ofFile: logPath).map {
            try decoder.decode(PushServerRecord.self, from: Data($0.utf8))
        }
    }

    func requests() throws -> [PushServerRecord] { try records().filter { $0.event == nil } }

    func connections() throws -> [PushServerRecord] { try records().filter { $0.event == "connection" } }
}

/// Debian's nghttpd (`--echo-upload --verify-client`, optionally `-v`), killed on `stop()` / deinit.
final class PushNghttpd {
    let port: Int
    let logPath: String
    private let process: ManagedProcess

    init(pki: PushTestPKI, scratch: TempDir, verbose: Bool, maxStreams: Int = 100) throws {
        port = try freeLoopbackPort()
        logPath = scratch.path("nghttpd-\(port).log")
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process = try ManagedProcess(
            "nghttpd", "nghttpd",
            ["--echo-upload", "--verify-client", "-a", "127.0.0.1", "-m", "\(maxStreams)"] + (verbose ? ["-v"] : [])
                + ["\(port)", pki.serverKey, pki.serverCert],
            stderrPath: logPath + ".err", stdoutPath: logPath)
        guard waitUntil(timeout: 30, { isListening(port: port) }) else {
            stop()
            throw TestToolFailure("nghttpd did not listen on \(port): \(try log()) \(process.stderr)")
        }
    }

    deinit { stop() }

    /// SIGKILL: the child inherits the test runner's blocked-signal mask, so SIGTERM may never arrive.
    func stop() { process.stop(grace: 0) }

    func log() throws -> String { try String(contentsOfFile: logPath, encoding: .utf8) }
}
