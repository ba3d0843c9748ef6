import Foundation
import Synchronization
import Testing
@testable import PassStore
@testable import PassHTTP
@testable import PassService
import PassMintTestSupport

/// A signer that says what it signed and counts its calls, and the rule of which passes are personalizable
/// (a record value stands in for the template's personalization.json).
final class RecordingSigner: Sendable {
    private let signed = Mutex<[String]>([])
    var tokens: [String] { signed.withLock { $0 } }

    var signing: PersonalizationSigning {
        PersonalizationSigning(
            isPersonalizable: { $0.record["personalizable"] == "yes" },
            sign: { [self] bytes in
                signed.withLock { $0.append(String(decoding: bytes, as: UTF8.self)) }
                return Array("signed:".utf8) + bytes
            })
    }
}

/// A personalizable pass (`personalizable` = yes) or a plain one, with a web service URL.
func enrollablePass(_ serial: String, personalizable: Bool = true) -> StoredPass {
    var pass = samplePass(serial)
    pass.record["personalizable"] = personalizable ? "yes" : "no"
    pass.webServiceURL = "https://passes.example.com/"
    return pass
}

func personalizeBody(_ token: String, info: [String: Any] = ["fullName": "Ada Lovelace"]) -> [UInt8] {
    jsonBody(["personalizationToken": token, "requiredPersonalizationInfo": info])
}

@Suite("Personalize: what the endpoint signs, once, and what it refuses the same way")
struct PersonalizationRoutesTests {
    let signer = RecordingSigner()

    func service(_ limits: UnauthenticatedWriteLimits = UnauthenticatedWriteLimits()) throws -> LiveService {
        var configuration = ServiceConfiguration(host: "127.0.0.1", port: 0)
        configuration.unauthenticated = limits
        let live = try LiveService(configuration: configuration, personalization: signer.signing)
        try live.store.insertPasses([enrollablePass("P1"), enrollablePass("PLAIN", personalizable: false)])
        return live
    }

    func path(_ serial: String, passType: String = passType) -> String {
        "/v1/passes/\(passType)/\(serial)/personalize"
    }

    static let manifest = """
        {"icon.png":"0d3c7ebd5e5bd5e8b9a7d2b6f0f5c1c3e3a4b2f1","pass.json":"2f1e5c8d9a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d",\
        "strip.png":"9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b"}
        """

    @Test(
        "the forgery and every token not of Wallet's shape get 400; nothing is signed or stored",
        arguments: [
            manifest, #"{"a":1}"#, "[1,2,3,4,5,6,7,8,9]", "1234567890123456", "-12345678901234.5e3",
            "short", String(repeating: "A", count: 1025), "has a space in it 0123", "tökenwithumlaut0123456",
            "token\u{0}withnul0123456",
        ])
    func forgeryRefused(token: String) throws {
        let live = try service()
        let response = try live.call("POST", path("P1"), body: personalizeBody(token))
        #expect(response.status == 400, "\(response.text)")
        #expect(response.text.contains("personalizationToken"))
        #expect(signer.tokens.isEmpty)
        #expect(try live.store.pass(serial: "P1")?.personalized == false)
        #expect(try live.store.personalizations(serial: "P1").isEmpty)
    }

    @Test("a sign-up is signed once: the pass is personalized with a new tag and a push; a repeat gets the same bytes")
    func enrollOnce() throws {
        let live = try service()
        let before = try #require(try live.store.pass(serial: "P1"))
        _ = try live.store.register(device: "d1", passType: passType, serial: "P1", pushToken: "abcdef", tag: 1)
        let info: [String: Any] = ["fullName": "Ada Lovelace", "emailAddress": "ada@example.com", "shoeSize": "38"]
        let first = try live.call("POST", path("P1"), body: personalizeBody(walletToken, info: info))
        #expect(first.status == 200)
        #expect(first.header("Content-Type") == "application/octet-stream")
        #expect(first.text == "signed:" + walletToken)
        let after = try #require(try live.store.pass(serial: "P1"))
        #expect(after.personalized && after.tag > before.tag && after.modifiedAt > before.modifiedAt)
        #expect(try live.store.outboxDepth() == 1)
        // Only the keys Apple documents are kept.
        #expect(
            try live.store.personalizations(serial: "P1") == [
                ["fullName": "Ada Lovelace", "emailAddress": "ada@example.com"]
            ])

        let repeated = try live.call("POST", path("P1"), body: personalizeBody(walletToken))
        #expect(repeated.status == 200 && repeated.body == first.body)
        #expect(signer.tokens == [walletToken], "a repeat must not sign again")
        #expect(try live.store.pass(serial: "P1")?.tag == after.tag)
        #expect(live.service.metrics.unauthenticatedCount(.personalization, .stored) == 1)
        #expect(live.service.metrics.unauthenticatedCount(.personalization, .repeated) == 1)
    }

    @Test("unknown serial, a pass without personalization.json, a voided one, another token after sign-up: one answer")
    func uniformRefusal() throws {
        let live = try service()
        var voided = enrollablePass("VOID")
        voided.voided = true
        try live.store.insertPasses([voided])
        #expect(try live.call("POST", path("P1"), body: personalizeBody(walletToken)).status == 200)
        let other = String(walletToken.reversed())
        let answers = try [
            live.call("POST", path("NOPE"), body: personalizeBody(other)),
            live.call("POST", path("PLAIN"), body: personalizeBody(other)),
            live.call("POST", path("VOID"), body: personalizeBody(other)),
            live.call("POST", path("P1"), body: personalizeBody(other)),
            live.call("POST", path("P1", passType: "pass.com.example.other"), body: personalizeBody(other)),
        ]
        for answer in answers {
            #expect(answer.status == 404)
            #expect(answer.body == answers[0].body)
            #expect(answer.headers.map { "\($0.0): \($0.1)" } == answers[0].headers.map { "\($0.0): \($0.1)" })
        }
        #expect(signer.tokens == [walletToken])
        #expect(try live.store.pass(serial: "PLAIN")?.personalized == false)
        #expect(live.service.metrics.unauthenticatedCount(.personalization, .refused) == answers.count)
    }

    @Test("an unknown serial and a pass that cannot be personalized cost the same store reads")
    func sameWork() throws {
        let fixture = try StoreFixture()
        try fixture.store.insertPasses([enrollablePass("PLAIN", personalizable: false)])
        let store = RecordingStore(fixture.sqlite)
        let service = try WalletService(
            configuration: .init(port: 0), store: store, renderer: TestRenderer(),
            personalization: signer.signing, environment: [:])
        var reads: [[String]] = []
        for serial in ["NOPE", "PLAIN"] {
            let before = store.recorded.count
            let response = service.respond(
                to: Request(
                    method: .post, path: path(serial), body: personalizeBody(walletToken),
                    clientAddress: "192.0.2.1"))
            #expect(response.status == 404)
            reads.append(Array(store.recorded[before...]))
        }
        #expect(reads[0] == reads[1] && !reads[0].isEmpty, "\(reads)")
    }

    @Test("each client address has its hourly budget of requests: then 429 with Retry-After, other addresses go on")
    func addressBudget() throws {
        let live = try service(UnauthenticatedWriteLimits(personalizeRequestsPerAddressPerHour: 3))
        for _ in 0..<3 {
            #expect(
                try live.call("POST", path("NOPE"), body: personalizeBody(walletToken), clientAddress: "10.0.0.1")
                    .status == 404)
        }
        let limited = try live.call("POST", path("P1"), body: personalizeBody(walletToken), clientAddress: "10.0.0.1")
        #expect(limited.status == 429)
        #expect(Int(limited.header("Retry-After") ?? "") ?? 0 > 0)
        #expect(signer.tokens.isEmpty)
        #expect(try live.store.pass(serial: "P1")?.personalized == false)
        let other = try live.call("POST", path("P1"), body: personalizeBody(walletToken), clientAddress: "10.0.0.2")
        #expect(other.status == 200)
        #expect(live.service.metrics.unauthenticatedCount(.personalization, .addressLimit) == 1)
    }

    @Test("sign-ups past the store's cap get 429 with Retry-After and leave the pass as it was")
    func storeCap() throws {
        let live = try service(UnauthenticatedWriteLimits(maxPersonalizationBytes: 100))
        let response = try live.call("POST", path("P1"), body: personalizeBody(walletToken))
        #expect(response.status == 429)
        #expect(response.header("Retry-After") != nil)
        #expect(try live.store.pass(serial: "P1")?.personalized == false)
        #expect(try live.store.personalizations(serial: "P1").isEmpty)
        #expect(try live.store.unauthenticatedUsage()[.personalization] == UnauthenticatedUsage(bytes: 0, rows: 0))
    }

    @Test("info values: a documented key that is not a string, too long or with a control byte is 400")
    func infoChecks() throws {
        let live = try service()
        for info: [String: Any] in [
            ["fullName": 5], ["emailAddress": String(repeating: "a", count: 257)], ["postalCode": "12\n34"],
        ] {
            #expect(try live.call("POST", path("P1"), body: personalizeBody(walletToken, info: info)).status == 400)
        }
        #expect(try live.call("POST", path("P1"), body: jsonBody(["requiredPersonalizationInfo": [:]])).status == 400)
        #expect(signer.tokens.isEmpty)
    }

    @Test("without a signer the endpoint is off: 404 for every serial")
    func disabled() throws {
        let live = try LiveService()
        try live.store.insertPasses([enrollablePass("P1")])
        let response = try live.call("POST", path("P1"), body: personalizeBody(walletToken))
        #expect(response.status == 404 && response.text.contains("not enabled"))
    }
}
