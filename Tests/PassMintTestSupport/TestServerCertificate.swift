import Foundation

/// A throwaway CA and a server certificate for 127.0.0.1 and localhost, made with the openssl CLI at test time
/// (EC P-256, two days), for tests that talk to PassMint over TLS.
public struct TestServerCertificate: Sendable {
    /// The CA certificate a client trusts (`curl --cacert`).
    public let ca: String
    /// The server certificate (PEM).
    public let certificate: String
    /// Its private key (PEM, unencrypted).
    public let key: String

    /// Writes `ca.pem`, `server.pem` and `server.key` (and their helpers) into `directory`.
    public init(in directory: TempDir) throws {
        try self.init(folder: directory.url)
    }

    /// The same into an existing folder (one that lives as long as the caller needs the files).
    public init(folder dir: URL) throws {
        func openssl(_ args: [String]) throws { try CLI.check("openssl", args, cwd: dir) }
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try openssl(
            ["req", "-x509"] + ec + ["-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Test CA"])
        try Data("subjectAltName=IP:127.0.0.1,DNS:localhost\n".utf8).write(to: dir.appendingPathComponent("san.ext"))
        try openssl(["req"] + ec + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"])
        try openssl(
            [
                "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out",
                "server.pem", "-days", "2", "-extfile", "san.ext",
            ])
        ca = dir.appendingPathComponent("ca.pem").path
        certificate = dir.appendingPathComponent("server.pem").path
        key = dir.appendingPathComponent("server.key").path
    }
}

/// A test tool (openssl, curl, …) that failed.
public struct TestToolFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
