import Foundation
import Testing
@testable import PassPush
import PassMintTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh scratch directory for one push test, removed on deinit.
final class PushScratch {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("passmint-push-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

struct PushToolFailure: Error, CustomStringConvertible {
    let description: String
}

enum PushTestTools {
    /// Folder of this test target (for PushTestServer.py).
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    /// Runs a program to completion; throws with its output when it fails.
    @discardableResult
    static func run(_ program: String, _ arguments: [String], in directory: String? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw PushToolFailure(description: "\(program) \(arguments.joined(separator: " ")) failed: \(text)")
        }
        return text
    }

    /// A python3 that can `import h2` (pip install h2, or Debian python3-h2), or nil.
    static let pythonWithH2: String? = {
        for candidate in ["python3", "/usr/bin/python3"] {
            if (try? run(candidate, ["-c", "import h2"])) != nil { return candidate }
        }
        return nil
    }()

    /// A python3 that can `import h2` and `cryptography` (Debian python3-h2 and python3-cryptography), for the
    /// stand-in's token checks, or nil.
    static let pythonWithH2AndCryptography: String? = {
        for candidate in ["/usr/bin/python3", "python3"] {
            if (try? run(candidate, ["-c", "import h2, cryptography"])) != nil { return candidate }
        }
        return nil
    }()

    static let hasNghttpd: Bool = (try? run("nghttpd", ["--version"])) != nil

    /// Polls `condition` every 20 ms until it holds or `timeout` passes.
    static func waitUntil(timeout: TimeInterval = 10, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return condition()
    }

    /// A 64-digit hex device token starting with `prefix` (the test server answers by prefix).
    static func token(_ prefix: String, _ number: Int) -> String {
        let tail = String(format: "%016x", number)
        return prefix + String(repeating: "e", count: 64 - prefix.count - tail.count) + tail
    }

    static let passType = "pass.com.example.test"
    /// A pass type of another team than the APNs auth key's.
    static let otherPassType = "pass.org.other.test"
}

/// A throwaway PKI made with the openssl CLI: CA, server certificate for 127.0.0.1 / localhost, a client
/// certificate signed by that CA (CN = the pass type), and a rogue client certificate from another CA.
struct PushTestPKI {
    let ca: String
    let serverCert: String
    let serverKey: String
    let clientCert: String
    let clientKey: String
    let rogueCert: String
    let rogueKey: String
    /// A client certificate of another pass type (`PushTestTools.otherPassType`, another team), from the same CA.
    let otherCert: String
    let otherKey: String

    init(in scratch: PushScratch) throws {
        let dir = scratch.url.path
        func make(_ args: [String]) throws { try PushTestTools.run("openssl", args, in: dir) }
        // The CA (ca.pem, ca.key) and the server certificate for 127.0.0.1 are the shared test ones; the client
        // certificates below are signed by that CA, the rogue one by a CA of its own.
        let server = try TestServerCertificate(folder: scratch.url)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try make(
            ["req", "-x509"] + ec + [
                "-keyout", "rogue-ca.key", "-out", "rogue-ca.pem", "-days", "2", "-subj", "/CN=Rogue CA",
            ])
        func leaf(_ name: String, cn: String, ca: String) throws {
            try make(["req"] + ec + ["-keyout", "\(name).key", "-out", "\(name).csr", "-subj", "/CN=\(cn)"])
            try make(
                [
                    "x509", "-req", "-in", "\(name).csr", "-CA", "\(ca).pem", "-CAkey", "\(ca).key", "-CAcreateserial",
                    "-out", "\(name).pem", "-days", "2",
                ])
        }
        try leaf("client", cn: PushTestTools.passType, ca: "ca")
        try leaf("rogue", cn: PushTestTools.passType, ca: "rogue-ca")
        try leaf("other", cn: PushTestTools.otherPassType, ca: "ca")
        ca = server.ca
        serverCert = server.certificate
        serverKey = server.key
        clientCert = scratch.path("client.pem")
        clientKey = scratch.path("client.key")
        rogueCert = scratch.path("rogue.pem")
        rogueKey = scratch.path("rogue.key")
        otherCert = scratch.path("other.pem")
        otherKey = scratch.path("other.key")
    }

    func configuration(port: Int, maxConcurrentStreams: Int = 500) -> APNsConfiguration {
        APNsConfiguration(
            baseURL: "https://127.0.0.1:\(port)",
            credential: .pemFiles(certificate: clientCert, key: clientKey, keyPassword: nil), caFile: ca,
            maxConcurrentStreams: maxConcurrentStreams, requestTimeout: 10, connectTimeout: 5)
    }
}

/// One line of PushTestServer.py's log.
struct PushServerRecord: Decodable {
    let event: String?
    let connection: Int
    let method: String?
    let path: String?
    let headers: [[String]]?
    let body: String?
    // swift-format-ignore: AlwaysUseLowerCamelCase
    let client_cn: String?
    /// How the request authenticated: "certificate", "token" or nil (neither).
    let auth: String?
    // swift-format-ignore: AlwaysUseLowerCamelCase
    let token_iat: Int?
    let status: Int?
    let reason: String?

    /// Regular (non-pseudo) headers in order.
    var plainHeaders: [(String, String)] {
        (headers ?? []).filter { !$0[0].hasPrefix(":") }.map { ($0[0], $0[1]) }
    }
}
