import Foundation

/// The APNs stand-in, `Tests/PassPushTests/PushTestServer.py` (HTTP/2 over TLS, client certificate required),
/// listening on a free port of 127.0.0.1 and logging every request to `log` as JSON lines. It is killed on
/// `stop()` or when the value goes away, and exits by itself when the test process dies (its stdin closes).
public final class APNsStandIn {
    public static let script = PackagePaths.root.appendingPathComponent("Tests/PassPushTests/PushTestServer.py").path

    public let port: Int
    public let process: ManagedProcess

    /// - Parameters:
    ///   - python: a python3 that can `import h2` (`TestTools.pythonWithH2`).
    ///   - certificate: its TLS server certificate and `key` (for 127.0.0.1).
    ///   - clientCA: the certificates it trusts for client certificates.
    ///   - log: the JSON-lines file it appends each connection and request to.
    ///   - stderrPath: where its standard error goes.
    ///   - arguments: more options for the script.
    public init(
        python: String, certificate: String, key: String, clientCA: String, log: String, stderrPath: String,
        arguments: [String] = []
    ) throws {
        process = try ManagedProcess(
            "PushTestServer.py", python,
            [Self.script, "--cert", certificate, "--key", key, "--ca", clientCA, "--log", log] + arguments,
            stderrPath: stderrPath, keepStdinOpen: true)
        let line = try process.firstLine()
        guard line.hasPrefix("PORT "), let port = Int(line.dropFirst(5)) else {
            process.stop(grace: 0)
            throw TestToolFailure("PushTestServer.py said '\(line)': \(process.stderr)")
        }
        self.port = port
    }

    /// `https://127.0.0.1:<port>`.
    public var url: String { "https://127.0.0.1:\(port)" }

    /// SIGKILL: the child inherits the test runner's blocked-signal mask, so SIGTERM may never arrive.
    public func stop() { process.stop(grace: 0) }
}
