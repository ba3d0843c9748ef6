import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Tools and paths the `serve` end-to-end tests use.
enum ServeTools {
    static let testsFolder = CLI.root.appendingPathComponent("Tests/passmintTests")
    static let simulator = testsFolder.appendingPathComponent("WalletDeviceSimulator.py").path
    static let status = PackagePaths.template("status")
    static let passType = "pass.dev.passmint"

    /// Registers COUNT devices `<device prefix>00000…` (push tokens `<token prefix>` + hex, 64 digits) for one
    /// serial, device i through port `PORTS[i % n]`, 8 keep-alive connections per port, and prints the status
    /// counts as JSON. Arguments: PORTS (comma-separated) PASS_TYPE SERIAL AUTH COUNT DEVICE_PREFIX TOKEN_PREFIX.
    /// Python's standard library only: thousands of curl processes would take minutes.
    static let registrar = """
        import http.client, json, sys, threading
        ports = [int(p) for p in sys.argv[1].split(",")]
        pass_type, serial, auth, count = sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
        device_prefix, token_prefix = sys.argv[6], sys.argv[7]
        threads, counts, lock = 8, {}, threading.Lock()
        def work(port, k):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            for i in range(k, count, threads * len(ports)):
                token = token_prefix + format(i, "x").rjust(64 - len(token_prefix), "0")
                connection.request("POST", f"/v1/devices/{device_prefix}{i:05d}/registrations/{pass_type}/{serial}",
                                   body=json.dumps({"pushToken": token}),
                                   headers={"Authorization": "ApplePass " + auth, "Content-Type": "application/json"})
                response = connection.getresponse()
                response.read()
                with lock:
                    counts[response.status] = counts.get(response.status, 0) + 1
        workers = [threading.Thread(target=work, args=(port, p + t * len(ports)))
                   for p, port in enumerate(ports) for t in range(threads)]
        for w in workers: w.start()
        for w in workers: w.join()
        print(json.dumps(counts))
        """

    /// `sqlite3 DB SQL` (an independent reader of the store), trimmed.
    static func sqlite(_ db: String, _ sql: String) throws -> String {
        try CLI.check("sqlite3", [db, sql]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// pass.json of a .pkpass, read with `unzip -p`.
    static func passJSON(_ pkpass: String) throws -> [String: Any] {
        let result = try CLI.run("unzip", ["-p", pkpass, "pass.json"])
        guard result.status == 0,
            let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        else { throw ServeFailure("no pass.json in \(pkpass): \(result.stderr)") }
        return json
    }

    /// One entry of a .pkpass, as bytes (`unzip -p`).
    static func entry(_ pkpass: String, _ name: String, tmp: TempDir) throws -> Data {
        let out = tmp.path("entry-\(UUID().uuidString)")
        let result = try CLI.run("/bin/sh", ["-c", "unzip -p \"$0\" \"$1\" > \"$2\"", pkpass, name, out])
        guard result.status == 0 else { throw ServeFailure("unzip \(name) from \(pkpass): \(result.stderr)") }
        return try Data(contentsOf: URL(fileURLWithPath: out))
    }

    /// The serial number (uppercase hex) of the certificate that signed a .pkpass, when its signature verifies
    /// with `openssl cms -verify` against `rootCA`; nil when it does not.
    static func signerSerial(_ pkpass: String, rootCA: String, tmp: TempDir) throws -> String? {
        let dir = tmp.path("signer-\(UUID().uuidString)")
        guard try CLI.run("unzip", ["-q", pkpass, "-d", dir]).status == 0 else { return nil }
        let verified = try CLI.run(
            "openssl",
            [
                "cms", "-verify", "-binary", "-inform", "DER", "-in", "signature", "-content", "manifest.json",
                "-CAfile", rootCA, "-purpose", "any", "-signer", "signer.pem", "-out", "/dev/null",
            ], cwd: URL(fileURLWithPath: dir))
        guard verified.status == 0 else { return nil }
        return try certificateSerial(dir + "/signer.pem")
    }

    /// `openssl x509 -serial` of a PEM certificate: the hex digits after `serial=`.
    static func certificateSerial(_ pem: String) throws -> String {
        let result = try CLI.run("openssl", ["x509", "-in", pem, "-noout", "-serial"])
        guard result.status == 0 else { throw ServeFailure("openssl x509 \(pem): \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(
            of: "serial=", with: ""
        )
        .uppercased()
    }

    /// `openssl cms -verify` of a .pkpass signature against the dev root (the WWDR comes from the signature).
    static func opensslVerifies(_ pkpass: String, tmp: TempDir) throws -> Bool {
        let dir = tmp.path("verify-\(UUID().uuidString)")
        guard try CLI.run("unzip", ["-q", pkpass, "-d", dir]).status == 0 else { return false }
        return try CLI.run(
            "openssl",
            [
                "cms", "-verify", "-binary", "-inform", "DER", "-in", "signature", "-content", "manifest.json",
                "-CAfile",
                DevIdentity.directory + "/root-ca.pem", "-purpose", "any", "-out", "/dev/null",
            ],
            cwd: URL(fileURLWithPath: dir)
        ).status == 0
    }
}

struct ServeFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A throwaway PKI for the APNs stand-in: a CA and a server certificate for 127.0.0.1 (openssl CLI), and the
/// bundle the stand-in trusts for client certificates (the dev WWDR and root, which issued the pass certificate).
struct APNsTestPKI {
    let ca: String
    let serverCert: String
    let serverKey: String
    let clientCA: String
    /// - Parameter clientCAs: the PEM files the stand-in trusts for client certificates (default: the shared
    ///   development identity's WWDR and root).
    init(in tmp: TempDir, clientCAs: [String]? = nil) throws {
        let folder = tmp.url.appendingPathComponent("apns")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let server = try TestServerCertificate(folder: folder)
        var bundle = Data()
        for file in clientCAs ?? [DevIdentity.directory + "/wwdr.pem", DevIdentity.directory + "/root-ca.pem"] {
            bundle += try Data(contentsOf: URL(fileURLWithPath: file))
        }
        try bundle.write(to: folder.appendingPathComponent("client-ca.pem"))
        ca = server.ca
        serverCert = server.certificate
        serverKey = server.key
        clientCA = folder.appendingPathComponent("client-ca.pem").path
    }
}
