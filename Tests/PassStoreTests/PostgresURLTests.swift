import Foundation
import Testing
@testable import PassStore
import PassMintTestSupport

@Suite("PostgresURL")
struct PostgresURLTests {
    @Test(
        "passwords are redacted from user info and parameters",
        arguments: [
            ("postgresql://u:pw@h:5432/db", "postgresql://u:***@h:5432/db", true),
            (
                "postgresql://u@h/db?password=pw&sslmode=require", "postgresql://u@h/db?password=***&sslmode=require",
                true
            ),
            ("postgres://h/db", "postgres://h/db", false),
            ("postgresql:///db?host=/run/postgresql", "postgresql:///db?host=/run/postgresql", false),
        ])
    func redaction(text: String, shown: String, hasPassword: Bool) throws {
        let url = try PostgresURL(text)
        #expect(url.description == shown)
        #expect(url.hasPassword == hasPassword)
    }

    @Test("anything but a postgresql:// URI is refused without echoing a password")
    func refused() {
        #expect(throws: StoreError.self) { try PostgresURL("host=db password=pw") }
        do { _ = try PostgresURL("mysql://u:pw@h/db") } catch { #expect(!"\(error)".contains("pw@")) }
    }
}
