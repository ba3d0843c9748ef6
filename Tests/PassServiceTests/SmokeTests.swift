import Foundation
import Testing

@testable import PassService

@Suite("smoke")
struct SmokeTests {
    @Test func healthz() throws {
        let live = try LiveService()
        let r = try live.request("GET", "/healthz")
        #expect(r.status == 200)
        #expect(r.text == "ok\n")
    }
}
