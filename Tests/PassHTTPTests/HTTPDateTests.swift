import Testing
@testable import PassHTTP

@Suite("HTTPDate")
struct HTTPDateTests {
    @Test("formats IMF-fixdate")
    func format() {
        #expect(HTTPDate.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.format(1_709_251_199) == "Thu, 29 Feb 2024 23:59:59 GMT")
    }

    @Test(
        "parses the three RFC 7231 formats",
        arguments: [
            "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
        ])
    func parse(text: String) {
        #expect(HTTPDate.parse(text) == 784_111_777)
    }

    @Test("round-trips", arguments: [0, 951_782_400, 1_800_000_000, 4_102_444_799] as [Int64])
    func roundTrip(seconds: Int64) {
        #expect(HTTPDate.parse(HTTPDate.format(seconds)) == seconds)
    }

    @Test(
        "rejects garbage",
        arguments: [
            "", "1351981923", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 32 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 25:49:37 GMT",
        ])
    func garbage(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}
