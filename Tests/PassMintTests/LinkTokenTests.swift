import Foundation
import Testing

@testable import PassMint

/// Distribution link tokens: a time-ordered selector and 192 random bits as base64url, hashed with SHA-256, checked
/// by independent tools.
@Suite("Link tokens and link settings")
struct LinkTokenTests {
    @Test("a token is 48 base64url characters that decode (basenc) to 36 bytes, the first 4 its second; tokens differ")
    func shape() throws {
        let now = Date(timeIntervalSince1970: 1_796_601_600.75)
        let tokens = (0..<64).map { _ in LinkToken.generate(now: now) }
        #expect(Set(tokens.map(\.text)).count == tokens.count)
        #expect(Set(tokens.map(\.key.selector)).count == tokens.count)
        for token in tokens.prefix(4) {
            #expect(token.text.count == 48)
            #expect(LinkToken(parsing: token.text) == token)
            #expect(token.key.selector == String(token.text.prefix(16)))
            #expect(token.key.hash == token.hash)
            let decoded = try CLI.run(
                "/bin/sh", ["-c", "printf '%s' \"$0\" | basenc --base64url -d | od -An -tx1 -v", token.text])
            let bytes = decoded.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" })
            #expect(bytes.count == 36, "\(decoded.stderr)")
            // 1,796,601,600 = 0x6B15F700: the second the token was made, big-endian, then random bytes.
            #expect(bytes.prefix(4) == ["6b", "15", "f7", "00"])
        }
    }

    @Test("a token from before selectors (43 characters) parses and is found by its hash alone")
    func selectorless() throws {
        let text = Base64URL.encode((0..<32).map { UInt8($0) })
        let token = try #require(LinkToken(parsing: text))
        #expect(token.key == LinkKey(selector: nil, hash: token.hash))
    }

    @Test("the hash is the SHA-256 of the token's text, as openssl computes it")
    func hash() throws {
        let token = LinkToken.generate()
        let digest = try CLI.run("/bin/sh", ["-c", "printf '%s' \"$0\" | openssl dgst -sha256 -r", token.text])
        #expect(digest.stdout.split(separator: " ").first.map(String.init) == token.hash)
        #expect(!"\(token)".contains(token.text), "a token must not print itself")
    }

    @Test(
        "only 48 (or, from before selectors, 43) base64url characters parse as a token",
        arguments: [
            "", "short", String(repeating: "A", count: 42), String(repeating: "A", count: 44),
            String(repeating: "A", count: 47), String(repeating: "A", count: 49),
            String(repeating: "A", count: 47) + "=",
            String(repeating: "A", count: 42) + "=", String(repeating: "A", count: 42) + "+",
            String(repeating: "A", count: 42) + "/", String(repeating: "é", count: 43),
        ])
    func rejects(text: String) {
        #expect(LinkToken(parsing: text) == nil)
    }

    @Test("base64url matches RFC 4648 test vectors (no padding)")
    func base64url() {
        let vectors = [("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE")]
        for (input, expected) in vectors { #expect(Base64URL.encode(Array(input.utf8)) == expected) }
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
    }

    @Test("a link is the base, /p/ and the token; trailing slashes of the base are dropped")
    func link() {
        let token = LinkToken.generate()
        #expect(
            PassLink(base: "https://passes.example.com/", token: token).url
                == "https://passes.example.com/p/\(token.text)")
        #expect(
            PassLink(base: "https://example.com/wallet//", token: token).url
                == "https://example.com/wallet/p/\(token.text)")
    }

    @Test(
        "link bases must be absolute http(s) URLs without query",
        arguments: [
            ("https://passes.example.com", true), ("http://127.0.0.1:8080/", true), ("ftp://example.com", false),
            ("passes.example.com", false), ("https://example.com/?a=1", false), ("https://", false),
        ])
    func bases(text: String, valid: Bool) {
        #expect(((try? LinkSettings.base(text)) != nil) == valid)
        if !valid {
            #expect(throws: PassMintError.self) { try LinkSettings.base(text) }
        }
    }

    @Test("expiry: a date, an ISO 8601 time or a duration; anything else names what to give")
    func expiry() throws {
        #expect(try LinkSettings.expiry(at: "2027-01-31") == Date(timeIntervalSince1970: 1_801_353_600))
        #expect(try LinkSettings.expiry(at: "2027-01-31T18:00:00Z") == Date(timeIntervalSince1970: 1_801_418_400))
        let now = Date(timeIntervalSince1970: 1_000_000)
        #expect(try LinkSettings.expiry(in: "30d", from: now) == now.addingTimeInterval(30 * 86_400))
        #expect(try LinkSettings.expiry(in: "12h", from: now) == now.addingTimeInterval(12 * 3_600))
        #expect(try LinkSettings.expiry(in: "90m", from: now) == now.addingTimeInterval(90 * 60))
        #expect(try LinkSettings.expiry(in: "600s", from: now) == now.addingTimeInterval(600))
        for bad in ["", "d", "-1d", "0h", "3w", "1.5d"] {
            do {
                _ = try LinkSettings.expiry(in: bad, from: now)
                Issue.record("'\(bad)' was accepted")
            } catch {
                #expect(error.about == .linkExpiry && error.description.contains("30d"))
            }
        }
        do {
            _ = try LinkSettings.expiry(at: "tomorrow")
            Issue.record("'tomorrow' was accepted")
        } catch {
            #expect(error.description.contains("2027-01-31"))
        }
    }
}
