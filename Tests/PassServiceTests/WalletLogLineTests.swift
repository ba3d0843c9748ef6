import Testing
@testable import PassService

@Suite("Wallet log lines: which pass a line names")
struct WalletLogLineTests {
    @Test(
        "a line names a pass by pass type and serial number, in words or in a path; the device when it says one",
        arguments: [
            (
                "Register task (for device 8a2b, pass type pass.com.example.x, serial number S-1; with web service "
                    + "url https://pass.example.com/) encountered error: Unexpected response code 401",
                [("pass.com.example.x", "S-1", "8a2b"), ("pass.example.com", "S-1", "8a2b")]
            ),
            (
                "Web service error for pass.com.example.x (https://api.example.com/): Server returned 500 for "
                    + "/v1/passes/pass.com.example.x/S-2",
                [("pass.com.example.x", "S-2", nil)]
            ),
            (
                "GET /v1/devices/dev9/registrations/pass.a.b/S-3 answered 401",
                [("pass.a.b", "S-3", "dev9")]
            ),
            ("Web service error for pass.com.example.x (https://api.example.com/): Unexpected response code 500", []),
            ("nothing about any pass", []),
        ] as [(String, [(String, String, String?)])])
    func mentions(line: String, expected: [(String, String, String?)]) {
        let found = WalletLogLine.mentions(in: line)
        #expect(found.map(\.passType) == expected.map(\.0))
        #expect(found.map(\.serial) == expected.map(\.1))
        #expect(found.map(\.device) == expected.map(\.2))
    }
}
