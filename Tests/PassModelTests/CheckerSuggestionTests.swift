import Testing

@testable import PassModel

@Suite("Checker suggestions")
struct CheckerSuggestionTests {
    @Test(
        "near misses are suggested; short or unrelated words get no suggestion",
        arguments: [
            ("backgroundColour", "backgroundColor"), ("webserviceurl", "webServiceURL"),
            ("PKTransitTypeAirplane", "PKTransitTypeAir"),
            ("short", "PKDateStyleShort"),
        ])
    func suggests(word: String, expected: String) {
        let candidates =
            Array(Pass.knownKeys) + TransitType.allKnown.map(\.rawValue) + DateStyle.allKnown.map(\.rawValue)
        #expect(Checker.nearest(word, in: candidates) == expected)
    }

    @Test("no suggestion for unrelated or very short words", arguments: ["url", "x-top", "zzzzzzzz"])
    func noSuggestion(word: String) {
        #expect(Checker.nearest(word, in: Array(Pass.knownKeys)) == nil)
    }
}
