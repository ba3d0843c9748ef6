import Foundation
import Testing
@testable import PassStore
import PassMintTestSupport

/// The claim of the shared outbox once the outbox went from empty (as PostgreSQL's statistics last saw it) to
/// thousands of rows: the case of every fan-out after a quiet period.
@Suite("PostgreSQL outbox claims", .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresOutboxClaimTests {
    @Test("a claim made first on an empty, analysed outbox still takes at most its limit once 5,000 rows are due")
    func claimAfterEmptyStatistics() throws {
        let url = try PostgresTestServer.freshSchema()
        // One connection, so the claim below runs where the empty-outbox claim ran (a cached plan would be there).
        let store = try PostgresStore(url: url, poolSize: 1)
        let sql = try PGConnection(url: url.connectionString, server: url.description)
        try sql.execute("VACUUM ANALYZE push_outbox")
        let now = Date()
        #expect(try store.claimDuePushes(limit: 1000, now: now, lease: 30).isEmpty)
        try sql.execute(
            """
            INSERT INTO push_outbox (push_token, pass_type, serial, tag, attempts, due_at, claimed_until)
            SELECT 'token' || i, 'pass.com.example.loyalty', 'A', 1, 0, 0, 0 FROM generate_series(1, 5000) AS i
            """)
        // With the plan cached while the outbox was empty, this claimed all 5,000 rows (and took seconds).
        let first = try store.claimDuePushes(limit: 1000, now: now, lease: 30)
        #expect(first.count == 1000)
        #expect(first.map(\.id) == first.map(\.id).sorted())
        let rest = try store.claimDuePushes(limit: 10_000, now: now, lease: 30)
        #expect(rest.count == 4000)
        #expect(Set(first.map(\.id)).isDisjoint(with: rest.map(\.id)))
    }
}
