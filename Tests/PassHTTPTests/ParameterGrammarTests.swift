import Testing
import PassModel
@testable import PassHTTP

@Suite("Path parameter grammars and percent-decoding")
struct ParameterGrammarTests {
    @Test("route parameter names map to their grammar")
    func names() {
        #expect(ParameterGrammar.named("device") == .deviceLibraryIdentifier)
        #expect(ParameterGrammar.named("passType") == .passTypeIdentifier)
        #expect(ParameterGrammar.named("serial") == .serialNumber)
        #expect(ParameterGrammar.named("linkToken") == .plainSegment)
    }

    @Test(
        "accepted and refused values",
        arguments: [
            (ParameterGrammar.deviceLibraryIdentifier, "a7f7ad7bd2b8e2b2a2e0e7d2c1a0f1b3", true),
            (.deviceLibraryIdentifier, "dev-1_x.y", true),
            (.deviceLibraryIdentifier, String(repeating: "a", count: 128), true),
            (.deviceLibraryIdentifier, String(repeating: "a", count: 129), false),
            (.deviceLibraryIdentifier, "", false),
            (.deviceLibraryIdentifier, "a/b", false),
            (.deviceLibraryIdentifier, "a b", false),
            (.passTypeIdentifier, "pass.com.example.loyalty", true),
            (.passTypeIdentifier, "pass.dev.pass-mint", true),
            (.passTypeIdentifier, "com.example.loyalty", false),
            (.passTypeIdentifier, "pass.", false),
            (.passTypeIdentifier, "pass.com..example", false),
            (.passTypeIdentifier, "pass.com.example.", false),
            (.passTypeIdentifier, "pass.com_example", false),
            (.passTypeIdentifier, "pass." + String(repeating: "a", count: 251), false),
            (.serialNumber, "S-1.2_3", true),
            (.serialNumber, String(repeating: "x", count: 128), true),
            (.serialNumber, String(repeating: "x", count: 129), false),
            (.serialNumber, ".", false),
            (.serialNumber, "..", false),
            (.plainSegment, String(repeating: "x", count: 256), true),
            (.plainSegment, String(repeating: "x", count: 257), false),
            (.serialNumber, "S1\u{0}", false),
            (.serialNumber, "ä", false),
        ])
    func values(grammar: ParameterGrammar, value: String, accepted: Bool) {
        #expect(grammar.accepts(value) == accepted, "\(grammar) \(value.debugDescription)")
    }

    @Test("percent-decoding: escapes decoded, control bytes and bad escapes refused")
    func decoding() throws {
        #expect(try PercentDecoding.decode("S%31") == "S1")
        #expect(try PercentDecoding.decode("a%2Fb") == "a/b")
        #expect(try PercentDecoding.decode("%C3%A4") == "ä")
        #expect(try PercentDecoding.decode("a+b") == "a+b")
        #expect(try PercentDecoding.decode("a+b", plusIsSpace: true) == "a b")
        #expect(throws: PercentDecoding.Problem.controlCharacter) { try PercentDecoding.decode("S1%00") }
        #expect(throws: PercentDecoding.Problem.controlCharacter) { try PercentDecoding.decode("S1%1f") }
        #expect(throws: PercentDecoding.Problem.controlCharacter) { try PercentDecoding.decode("S1%7F") }
        #expect(throws: PercentDecoding.Problem.controlCharacter) { try PercentDecoding.decode("S1\u{0}") }
        #expect(throws: PercentDecoding.Problem.invalidEscape) { try PercentDecoding.decode("S1%") }
        #expect(throws: PercentDecoding.Problem.invalidEscape) { try PercentDecoding.decode("S1%4") }
        #expect(throws: PercentDecoding.Problem.invalidEscape) { try PercentDecoding.decode("S1%zz") }
        #expect(throws: PercentDecoding.Problem.invalidUTF8) { try PercentDecoding.decode("S1%FF") }
    }
}
