import Foundation
import PassSigning
import Synchronization
import Testing
@testable import PassStore
@testable import PassPush

/// Token authentication (an APNs auth key, `.p8`) against PushTestServer.py checking every token with the key's
/// public key: signature, kid, iss, age, renewal rate and topic, with a clock the test moves.
@Suite("APNs token authentication", .serialized)
struct PushTokenAuthTests {
    static let keyID = "ABC123DEFG"
    static let team = "TEAM123456"

    /// A clock the test moves by hand, shared with the stand-in through its clock file.
    final class TestClock: Sendable {
        private let now: Mutex<Date>
        let file: String
        init(file: String) {
            self.file = file
            now = Mutex(Date(timeIntervalSince1970: (Date().timeIntervalSince1970).rounded(.down)))
            write(server: read())
        }
        func read() -> Date { now.withLock { $0 } }
        /// Moves the client's clock and the server's by `seconds` (the server's by `server` when given).
        func advance(_ seconds: TimeInterval, server: TimeInterval? = nil) {
            let moved = now.withLock { date -> Date in
                date += seconds
                return date
            }
            write(server: server.map { moved.addingTimeInterval($0 - seconds) } ?? moved)
        }
        func write(server: Date) {
            try? String(Int64(server.timeIntervalSince1970)).write(toFile: file, atomically: true, encoding: .utf8)
        }
    }

    /// The stand-in, a fresh `.p8` and its public key, and the configuration the pusher would get.
    struct Setup {
        let scratch: TempDir
        let pki: PushTestPKI
        let server: PushScriptServer
        let clock: TestClock
        let source: ProviderTokenSource
        let configuration: APNsConfiguration

        init(renewAfter: TimeInterval = 50 * 60) throws {
            scratch = try TempDir()
            pki = try PushTestPKI(in: scratch)
            let p8 = scratch.path("AuthKey_\(PushTokenAuthTests.keyID).p8")
            try CLI.check(
                "openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", p8])
            let publicKey = scratch.path("auth-key-public.pem")
            try CLI.check("openssl", ["pkey", "-in", p8, "-pubout", "-out", publicKey])
            clock = TestClock(file: scratch.path("clock"))
            server = try PushScriptServer(
                python: TestTools.pythonWithH2AndCryptography!, pki: pki, scratch: scratch,
                extraArguments: [
                    "--token-key", publicKey, "--token-key-id", PushTokenAuthTests.keyID, "--token-team",
                    PushTokenAuthTests.team, "--token-topics", PushTestTools.passType, "--clock-file", clock.file,
                ])
            let key = try APNsTokenKey(
                key: try ES256Key.load(path: p8), keyID: PushTokenAuthTests.keyID, teamID: PushTokenAuthTests.team)
            let clock = self.clock
            source = try ProviderTokenSource(key: key, renewAfter: renewAfter, clock: { clock.read() })
            var configuration = pki.configuration(port: server.port)
            configuration.token = APNsTokenAuthentication(source: source, passTypes: [PushTestTools.passType])
            configuration.certificates = [
                PushTestTools.otherPassType: .pemFiles(certificate: pki.otherCert, key: pki.otherKey, keyPassword: nil)
            ]
            self.configuration = configuration
        }
    }

    static func jobs(_ count: Int, from first: Int, passType: String = PushTestTools.passType) -> [PushJob] {
        (0..<count).map {
            PushJob(
                id: Int64(first + $0), pushToken: pushToken("aa", first + $0), passTypeIdentifier: passType,
                attempts: 0)
        }
    }

    @Test(
        "a .p8 token is accepted, reused across pushes for its lifetime and renewed after it (clock moved, no waiting)",
        .enabled(if: TestTools.pythonWithH2AndCryptography != nil, TestTools.pythonWithH2AndCryptographyMissing))
    func tokenReusedThenRenewed() throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        let sender = try APNsSender(configuration: setup.configuration)
        let start = Int(setup.clock.read().timeIntervalSince1970)

        #expect(sender.send(Self.jobs(3, from: 0)).map(\.outcome) == Array(repeating: .delivered, count: 3))
        setup.clock.advance(30 * 60)  // younger than the 50 minutes a token is kept
        #expect(sender.send(Self.jobs(2, from: 10)).map(\.outcome) == [.delivered, .delivered])
        setup.clock.advance(21 * 60)  // 51 minutes: renewed
        #expect(sender.send(Self.jobs(2, from: 20)).map(\.outcome) == [.delivered, .delivered])

        let requests = try setup.server.requests()
        #expect(requests.count == 7)
        #expect(requests.allSatisfy { $0.auth == "token" && $0.status == 200 && $0.client_cn == nil })
        #expect(requests.map(\.token_iat) == [start, start, start, start, start, start + 51 * 60, start + 51 * 60])
        let bearers = Set(requests.compactMap { $0.plainHeaders.first { $0.0 == "authorization" }?.1 })
        #expect(bearers.count == 2, "one token for the first five pushes, one after the renewal")
        #expect(bearers.allSatisfy { $0.hasPrefix("bearer ") && $0.split(separator: ".").count == 3 })
        #expect(Set(requests.map(\.connection)).count == 1, "one token connection throughout")
    }

    @Test(
        "ExpiredProviderToken renews the token once and the push goes through; a second refusal is not retried again",
        .enabled(if: TestTools.pythonWithH2AndCryptography != nil, TestTools.pythonWithH2AndCryptographyMissing))
    func expiredTokenRenewsOnce() throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        let sender = try APNsSender(configuration: setup.configuration)
        let start = Int(setup.clock.read().timeIntervalSince1970)
        #expect(sender.send(Self.jobs(1, from: 0)).map(\.outcome) == [.delivered])

        // APNs' clock runs an hour ahead of ours: our 25-minute-old token is expired for it, a new one is not.
        setup.clock.advance(25 * 60, server: 25 * 60 + 3600)
        let renewed = sender.send(Self.jobs(2, from: 10))
        #expect(renewed.map(\.outcome) == [.delivered, .delivered])
        let afterRenewal = try setup.server.requests()
        #expect(afterRenewal.count == 5)
        #expect(
            afterRenewal.dropFirst().prefix(2).allSatisfy {
                $0.reason == "ExpiredProviderToken" && $0.token_iat == start
            })
        #expect(afterRenewal.suffix(2).allSatisfy { $0.status == 200 && $0.token_iat == start + 25 * 60 })

        // Now APNs refuses even a fresh token: one renewal, one more try, then the answer stands.
        setup.clock.advance(60, server: 3 * 3600)
        let refused = sender.send(Self.jobs(1, from: 20))
        #expect(refused.first?.status == 403 && refused.first?.reason == "ExpiredProviderToken")
        let last = try setup.server.requests().dropFirst(afterRenewal.count)
        #expect(last.count == 2, "the refused push was sent twice: with the old token and with one renewed token")
        #expect(Set(last.compactMap(\.token_iat)).count == 2)
    }

    @Test(
        "in one sender a pass type of the key's team pushes with the token, one of another team with its certificate",
        .enabled(if: TestTools.pythonWithH2AndCryptography != nil, TestTools.pythonWithH2AndCryptographyMissing))
    func otherTeamKeepsItsCertificate() throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        let sender = try APNsSender(configuration: setup.configuration)
        let mixed = Self.jobs(2, from: 0) + Self.jobs(2, from: 10, passType: PushTestTools.otherPassType)
        #expect(sender.send(mixed).map(\.outcome) == Array(repeating: .delivered, count: 4))
        let requests = try setup.server.requests()
        let byTopic = Dictionary(grouping: requests) { $0.plainHeaders.first { $0.0 == "apns-topic" }?.1 ?? "" }
        let token = try #require(byTopic[PushTestTools.passType])
        let certificate = try #require(byTopic[PushTestTools.otherPassType])
        #expect(token.count == 2 && token.allSatisfy { $0.auth == "token" && $0.client_cn == nil })
        #expect(
            certificate.count == 2
                && certificate.allSatisfy {
                    $0.auth == "certificate" && $0.client_cn == PushTestTools.otherPassType
                        && !$0.plainHeaders.contains { $0.0 == "authorization" }
                })
        #expect(Set(token.map(\.connection)).isDisjoint(with: Set(certificate.map(\.connection))))
        #expect(
            setup.configuration.authentication(forTopic: PushTestTools.passType) == .token
                && setup.configuration.authentication(forTopic: PushTestTools.otherPassType)
                    == .certificate(passType: PushTestTools.otherPassType)
        )
    }

    @Test(
        "the stand-in refuses a token signed by another key and a certificate push to a topic it does not name",
        .enabled(if: TestTools.pythonWithH2AndCryptography != nil, TestTools.pythonWithH2AndCryptographyMissing))
    func standInIsStrict() throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        let wrong = setup.scratch.path("wrong.p8")
        try CLI.check(
            "openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", wrong])
        var configuration = setup.configuration
        let clock = setup.clock
        configuration.token = APNsTokenAuthentication(
            source: try ProviderTokenSource(
                key: try APNsTokenKey(key: try ES256Key.load(path: wrong), keyID: Self.keyID, teamID: Self.team),
                clock: { clock.read() }),
            passTypes: [PushTestTools.passType])
        let forged = try APNsSender(configuration: configuration).send(Self.jobs(1, from: 0))
        #expect(forged.first?.status == 403 && forged.first?.reason == "InvalidProviderToken")
        // The certificate of the pass type used for another topic.
        configuration.certificates = [
            PushTestTools.otherPassType: .pemFiles(
                certificate: setup.pki.clientCert, key: setup.pki.clientKey, keyPassword: nil)
        ]
        let mismatched = try APNsSender(configuration: configuration).send(
            Self.jobs(1, from: 5, passType: PushTestTools.otherPassType))
        #expect(mismatched.first?.status == 400 && mismatched.first?.reason == "TopicDisallowed")
    }

    @Test("a token is kept 20 to 55 minutes; key and team IDs are Apple's 10 characters; the key never shows")
    func settingsAndRedaction() throws {
        let scratch = try TempDir()
        let p8 = scratch.path("key.p8")
        try CLI.check(
            "openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", p8])
        let key = try ES256Key.load(path: p8)
        let tokenKey = try APNsTokenKey(key: key, keyID: Self.keyID, teamID: Self.team)
        #expect(throws: PushError.self) { try ProviderTokenSource(key: tokenKey, renewAfter: 19 * 60) }
        #expect(throws: PushError.self) { try ProviderTokenSource(key: tokenKey, renewAfter: 56 * 60) }
        #expect(throws: PushError.self) { try APNsTokenKey(key: key, keyID: "abc", teamID: Self.team) }
        #expect(throws: PushError.self) { try APNsTokenKey(key: key, keyID: Self.keyID, teamID: "team-1") }
        let pem = try String(contentsOfFile: p8, encoding: .utf8)
        let body = pem.split(separator: "\n").dropFirst().first.map(String.init) ?? "?"
        #expect(!"\(tokenKey)".contains(body) && "\(tokenKey)" == "APNs auth key \(Self.keyID) of team \(Self.team)")

        let rsa = scratch.path("rsa.pem")
        try CLI.check(
            "openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", rsa])
        #expect {
            _ = try ES256Key.load(path: rsa)
        } throws: { error in
            guard case SigningError.notES256Key(let path, _) = error else { return false }
            return path == rsa && !"\(error)".contains("BEGIN")
        }
        var sandbox = APNsConfiguration(
            baseURL: "https://api.sandbox.push.apple.com", credential: .pemData(certificate: [], key: []))
        #expect(throws: PushError.sandboxHost("https://api.sandbox.push.apple.com")) { try sandbox.validate() }
        sandbox.baseURL = "https://api.development.push.apple.com:443"
        #expect(throws: PushError.self) { try sandbox.validate() }
    }
}
