import Foundation
import Testing
@testable import PassPush
@_exported import PassMintTestSupport

#if canImport(Glibc)
    import Glibc
#endif

enum PushTestTools {
    /// Folder of this test target (for PushTestServer.py).
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

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

    init(in scratch: TempDir) throws {
        func make(_ args: [String]) throws { try CLI.check("openssl", args, cwd: scratch.url) }
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
