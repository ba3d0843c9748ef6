import Testing

@testable import PassModel

@Suite("PassDate")
struct PassDateTests {
    @Test(
        "accepts complete timestamps with hours, minutes and a zone",
        arguments: [
            "2012-07-22T14:25-08:00", "2026-01-01T00:00:00Z", "2026-02-28T23:59:59.123+05:30", "2024-02-29T12:00+0100",
        ])
    func accepts(text: String) {
        #expect(PassDate(parsing: text) != nil)
        #expect(PassDate.problem(with: text) == nil)
    }

    @Test(
        "rejects incomplete or impossible timestamps with a reason",
        arguments: [
            ("2026-07-22", "no time"), ("2026-07-22T14:25", "no time zone"), ("2026-07-22T14", "no valid time"),
            ("2026-13-01T10:00Z", "not a real calendar date"), ("2025-02-29T10:00Z", "not a real calendar date"),
            ("2026-07-22T25:00Z", "impossible time"), ("22/07/2026 14:25", "not an ISO 8601 date"),
            ("2026-07-22T14:25+8", "malformed time zone"), ("2026-07-22T14:25Zjunk", "unexpected text"),
        ])
    func rejects(text: String, reason: String) throws {
        #expect(PassDate(parsing: text) == nil)
        let problem = try #require(PassDate.problem(with: text))
        #expect(problem.contains(reason), "\(problem)")
        #expect(problem.contains("write it like"))
    }

    @Test("epoch seconds honour the zone offset")
    func epoch() throws {
        let a = try #require(PassDate(parsing: "1970-01-01T00:00Z"))
        #expect(a.epochSeconds == 0)
        let b = try #require(PassDate(parsing: "2012-07-22T14:25-08:00"))
        #expect(b.epochSeconds == 1_342_995_900)
        let c = try #require(PassDate(parsing: "2012-07-22T23:25+01:00"))
        #expect(c.epochSeconds - b.epochSeconds == 0)
        #expect(b.description == "2012-07-22T14:25:00-08:00")
    }
}
