import Foundation
import PassMintTestSupport
import Testing
@testable import PassGoogle

/// ECv2SigningOnly callbacks signed in the test with EC keys made by the openssl CLI (standing in for Google's).
@Suite("GoogleCallbackVerifier: Google's save and delete callbacks")
struct GoogleCallbackVerifierTests {
    static let issuer = "3388000000022000000"

    /// Root and intermediate keys in a temporary folder, and signing with the openssl CLI.
    final class Keys {
        let tmp: TempDir

        init() throws {
            tmp = try TempDir()
            for name in ["root", "intermediate", "stranger"] {
                try openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", tmp.path("\(name).pem")])
            }
        }

        func openssl(_ args: [String]) throws {
            let result = try CLI.run("openssl", args)
            guard result.status == 0 else { throw TestToolFailure("openssl \(args): \(result.stderr)") }
        }

        /// The public key as base64 DER SubjectPublicKeyInfo.
        func publicKey(_ name: String) throws -> String {
            let out = tmp.path("\(name).der")
            try openssl(["ec", "-in", tmp.path("\(name).pem"), "-pubout", "-outform", "DER", "-out", out])
            return try Data(contentsOf: URL(fileURLWithPath: out)).base64EncodedString()
        }

        /// A DER ECDSA-SHA256 signature of `bytes`, base64.
        func sign(_ bytes: [UInt8], with name: String) throws -> String {
            let input = try tmp.write(bytes, "in-\(UUID().uuidString)")
            let out = tmp.path("sig-\(UUID().uuidString)")
            try openssl(["dgst", "-sha256", "-sign", tmp.path("\(name).pem"), "-out", out, input])
            return try Data(contentsOf: URL(fileURLWithPath: out)).base64EncodedString()
        }

        func rootKeysJSON(expiration: Int64) throws -> [UInt8] {
            Array(
                """
                {"keys": [{"keyValue": "\(try publicKey("root"))", "protocolVersion": "ECv2SigningOnly",
                "keyExpiration": "\(expiration)"}, {"keyValue": "AAAA", "protocolVersion": "ECv1"}]}
                """.utf8)
        }
    }

    /// LV as Tink builds it, written here independently of the verifier's own.
    static func lv(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        return withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { Array($0) } + bytes
    }

    /// A callback body; `root` signs the intermediate key, `messageSigner` the message.
    static func body(
        _ keys: Keys, root: String = "root", messageSigner: String = "intermediate", keyExpiration: Int64,
        messageExpiration: Int64, objectID: String = "\(issuer).M-1", event: String = "save", tamper: Bool = false
    ) throws -> [UInt8] {
        let signedKey = #"{"keyValue": "\#(try keys.publicKey("intermediate"))", "keyExpiration": "\#(keyExpiration)"}"#
        let keySignature = try keys.sign(
            lv("GooglePayPasses") + lv("ECv2SigningOnly") + lv(signedKey), with: root)
        var message =
            #"{"classId": "\#(issuer).c", "objectId": "\#(objectID)", "eventType": "\#(event)", "#
            + #""expTimeMillis": \#(messageExpiration), "nonce": "n-1"}"#
        let signature = try keys.sign(
            lv("GooglePayPasses") + lv(issuer) + lv("ECv2SigningOnly") + lv(message), with: messageSigner)
        if tamper { message = message.replacingOccurrences(of: "\"save\"", with: "\"del\"") }
        let object: [String: Any] = [
            "protocolVersion": "ECv2SigningOnly", "signature": signature, "signedMessage": message,
            "intermediateSigningKey": ["signedKey": signedKey, "signatures": [keySignature]],
        ]
        return Array(try JSONSerialization.data(withJSONObject: object))
    }

    @Test("LV: 4 bytes little-endian of the UTF-8 byte count, then the bytes")
    func lengthValue() {
        #expect(GoogleCallbackVerifier.lengthValue("ab") == [2, 0, 0, 0, 97, 98])
        #expect(GoogleCallbackVerifier.lengthValue("é").prefix(4) == [2, 0, 0, 0])
        #expect(GoogleCallbackVerifier.lengthValue(String(repeating: "x", count: 300)).prefix(4) == [44, 1, 0, 0])
    }

    @Test("a callback signed as Google signs it gives its event; every broken link in the chain is refused")
    func verification() throws {
        let keys = try Keys()
        let now = Date()
        let ms = Int64(now.timeIntervalSince1970 * 1000)
        let roots = try GoogleRootKeys(json: try keys.rootKeysJSON(expiration: ms + 86_400_000), file: "keys.json")
        let verifier = GoogleCallbackVerifier(issuerID: Self.issuer, rootKeys: roots)
        let good = try Self.body(keys, keyExpiration: ms + 60_000, messageExpiration: ms + 60_000)
        let event = try verifier.verify(good, now: now)
        #expect(event.objectID == "\(Self.issuer).M-1")
        #expect(event.kind == .save)
        #expect(event.nonce == "n-1")

        let cases: [(String, [UInt8], GoogleCallbackError)] = [
            (
                "root is a stranger",
                try Self.body(keys, root: "stranger", keyExpiration: ms + 60_000, messageExpiration: ms + 60_000),
                .intermediateNotSigned
            ),
            (
                "message signed by another key",
                try Self.body(
                    keys, messageSigner: "stranger", keyExpiration: ms + 60_000, messageExpiration: ms + 60_000),
                .messageNotSigned
            ),
            (
                "message changed after signing",
                try Self.body(keys, keyExpiration: ms + 60_000, messageExpiration: ms + 60_000, tamper: true),
                .messageNotSigned
            ),
            (
                "intermediate key expired",
                try Self.body(keys, keyExpiration: ms - 1, messageExpiration: ms + 60_000), .intermediateExpired
            ),
            (
                "message expired",
                try Self.body(keys, keyExpiration: ms + 60_000, messageExpiration: ms - 1), .messageExpired
            ),
            (
                "another issuer's object",
                try Self.body(keys, keyExpiration: ms + 60_000, messageExpiration: ms + 60_000, objectID: "1.M-1"),
                .otherIssuer(objectID: "1.M-1")
            ),
            (
                "an unknown event",
                try Self.body(keys, keyExpiration: ms + 60_000, messageExpiration: ms + 60_000, event: "open"),
                .unknownEvent("open")
            ),
            ("not JSON", Array("{".utf8), .malformed(path: "the body")),
        ]
        for (name, body, expected) in cases {
            #expect(throws: expected, "\(name)") { try verifier.verify(body, now: now) }
        }
        // An expired root key verifies nothing.
        let expired = try GoogleRootKeys(json: try keys.rootKeysJSON(expiration: ms - 1), file: "keys.json")
        #expect(throws: GoogleCallbackError.intermediateNotSigned) {
            try GoogleCallbackVerifier(issuerID: Self.issuer, rootKeys: expired).verify(good, now: now)
        }
    }

    @Test("a root keys file without an ECv2SigningOnly key, or with a bad one, is refused naming the problem")
    func rootKeysFile() {
        #expect(throws: GoogleCallbackError.rootKeys(file: "k", problem: .notKeysJSON)) {
            try GoogleRootKeys(json: Array("[]".utf8), file: "k")
        }
        #expect(throws: GoogleCallbackError.rootKeys(file: "k", problem: .noKeys)) {
            try GoogleRootKeys(
                json: Array(#"{"keys": [{"keyValue": "AAAA", "protocolVersion": "ECv1"}]}"#.utf8), file: "k")
        }
        #expect(throws: GoogleCallbackError.rootKeys(file: "k", problem: .badKey(index: 0))) {
            try GoogleRootKeys(
                json: Array(#"{"keys": [{"keyValue": "AAAA", "protocolVersion": "ECv2SigningOnly"}]}"#.utf8), file: "k")
        }
    }
}
