import Foundation
import Testing
@testable import PassPush

@Suite("APNs configuration")
struct PushConfigurationTests {
    func files(_ scratch: TempDir) throws -> APNsConfiguration.Credential {
        try "-----BEGIN CERTIFICATE-----\n".write(toFile: scratch.path("c.pem"), atomically: true, encoding: .utf8)
        try ("-----BEGIN PRIVATE " + "KEY-----\n").write(
            toFile: scratch.path("k.pem"), atomically: true, encoding: .utf8)
        return .pemFiles(certificate: scratch.path("c.pem"), key: scratch.path("k.pem"), keyPassword: nil)
    }

    @Test(
        "TLS is required: http and malformed base URLs are refused",
        arguments: [
            "http://127.0.0.1:8443", "api.push.apple.com", "https://", "https://host/path", "https://host?x=1",
            "ftp://host",
        ])
    func badBaseURL(url: String) throws {
        let scratch = try TempDir()
        let configuration = APNsConfiguration(baseURL: url, credential: try files(scratch))
        #expect(throws: PushError.invalidBaseURL(url)) { try configuration.validate() }
        #expect(throws: PushError.invalidBaseURL(url)) { try APNsClient(configuration: configuration) }
    }

    @Test("the default endpoint is Apple production; a trailing slash is accepted")
    func defaults() throws {
        let scratch = try TempDir()
        let configuration = APNsConfiguration(credential: try files(scratch))
        #expect(configuration.baseURL == "https://api.push.apple.com")
        #expect(configuration.maxConcurrentStreams == 500)
        #expect(try configuration.normalizedBaseURL() == "https://api.push.apple.com")
        var slash = configuration
        slash.baseURL = "https://127.0.0.1:2197/"
        #expect(try slash.normalizedBaseURL() == "https://127.0.0.1:2197")
    }

    @Test("missing files and non-PEM blobs are named in the error")
    func unreadable() throws {
        let scratch = try TempDir()
        let missing = APNsConfiguration(
            credential: .pemFiles(certificate: "/nonexistent/pass.pem", key: "/k", keyPassword: nil))
        #expect(throws: PushError.unreadableFile(role: "client certificate", path: "/nonexistent/pass.pem")) {
            try missing.validate()
        }
        var badCA = APNsConfiguration(credential: try files(scratch))
        badCA.caFile = "/nonexistent/ca.pem"
        #expect(throws: PushError.unreadableFile(role: "CA", path: "/nonexistent/ca.pem")) {
            try badCA.validate()
        }
        let blob = APNsConfiguration(
            credential: .pemData(certificate: Array("-----BEGIN CERTIFICATE-----".utf8), key: [1, 2, 3]))
        #expect(throws: PushError.invalidPEM(role: "client key")) { try blob.validate() }
        var zero = APNsConfiguration(credential: try files(scratch))
        zero.maxConcurrentStreams = 0
        #expect(throws: PushError.invalidSetting(name: "maxConcurrentStreams", value: "0")) { try zero.validate() }
        #expect(PushError.unreadableFile(role: "CA", path: "/x").description.contains("/x"))
    }

    @Test("credentials never print key material")
    func redactedCredential() {
        let credential = APNsConfiguration.Credential.pemData(
            certificate: Array("CERT".utf8), key: Array("SECRETKEY".utf8))
        #expect(!"\(credential)".contains("SECRETKEY"))
        let files = APNsConfiguration.Credential.pemFiles(certificate: "/c.pem", key: "/k.pem", keyPassword: "hunter2")
        #expect(!"\(files)".contains("hunter2"))
    }

    @Test("a pusher refuses an invalid configuration when made")
    func pusherRefuses() {
        let configuration = APNsConfiguration(
            baseURL: "http://127.0.0.1:1",
            credential: .pemFiles(certificate: "/nonexistent.pem", key: "/x.key", keyPassword: nil))
        #expect(throws: PushError.invalidBaseURL("http://127.0.0.1:1")) {
            try Pusher(outbox: PushMemoryOutbox(), configuration: configuration)
        }
    }
}
